/**
 * The gate and what is never lost: a target that only ever fails at the transport is exit 2 with
 * the reports written; --flush-every writes the reports while the proxy runs; the JUnit file
 * follows --fail-on (a client's finding is no JUnit failure under --fail-on target, and is one
 * under client); report.json groups the client findings by User-Agent; --max-capture-mb bounds
 * the body bytes held, a larger answer then judged on its head and size.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import t, { type Test } from "tap";
import { startEmulator } from "../../sim/http/index.ts";
import { createProxyCommand } from "./cli.ts";
import type { ProxyHandle } from "./proxy.ts";
import { startProxy } from "./proxy.ts";
import type { Flow } from "./forward.ts";

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s) }, out, err };
}

/** Runs the command with an injected stop signal; resolves once it listens. */
async function runProxy(argv: string[]) {
  const c = capture();
  let signal: () => void = () => {};
  let exit: Promise<number> = Promise.resolve(-1);
  const proxy = await new Promise<ProxyHandle>((resolve) => {
    const cmd = createProxyCommand({ onStopSignal: (stop) => ((signal = stop), () => {}), onCrash: () => () => {}, onListening: resolve });
    exit = cmd.run(argv, c.io);
  });
  return { proxy, c, stop: () => (signal(), exit) };
}

const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setTimeout(r, 20));
};

t.test("a target that accepts connections but never answers (each a transport error): exit 2, saying so, reports written", async (t) => {
  // Accepts the TCP connection (the check before listening passes), then drops it unanswered.
  const dead = createServer((socket) => socket.destroy());
  await new Promise<void>((r) => dead.listen(0, "127.0.0.1", r));
  t.teardown(() => dead.close());
  const dir = t.testdir();
  const { proxy, c, stop } = await runProxy(["--target", `http://127.0.0.1:${(dead.address() as AddressInfo).port}`, "--report-dir", dir, "--quiet"]);
  for (let i = 0; i < 2; i++) {
    const res = await fetch(`${proxy.baseUrl}/v2/pods`);
    t.equal(res.status, 502, "the client gets a 502");
    await res.arrayBuffer();
  }
  t.equal(await stop(), 2, "exit 2: nothing was judged on the target's side");
  t.match(c.err.join(""), /the target never answered: 2 exchange\(s\), each a transport error/);
  t.ok(existsSync(join(dir, "report.json")), "the reports are written all the same");
});

t.test("--flush-every 1 writes the reports after each exchange, while the proxy runs", async (t) => {
  const emulator = await startEmulator({ clock: "manual", seed: 3, logger: false });
  t.teardown(() => emulator.close());
  const key = emulator.apiKeys.find((k) => k.access === "full")!.key;
  const dir = t.testdir();
  const { proxy, stop } = await runProxy(["--target", emulator.baseUrl, "--report-dir", dir, "--quiet", "--flush-every", "1"]);
  await (await fetch(`${proxy.baseUrl}/v2/pods`, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer();
  const file = join(dir, "report.json");
  // report.html is written last.
  await until(() => existsSync(join(dir, "report.html")));
  t.equal((JSON.parse(readFileSync(file, "utf8")) as { requests: number }).requests, 1, "report.json holds the exchange before the stop");
  t.ok(existsSync(join(dir, "junit.xml")), "junit.xml beside it");
  t.equal(await stop(), 0);
});

t.test("--fail-on target: a client's finding is in report.json, grouped by its User-Agent, and no JUnit failure; --fail-on client fails it", async (t) => {
  const emulator = await startEmulator({ clock: "manual", seed: 3, logger: false });
  t.teardown(() => emulator.close());
  const key = emulator.apiKeys.find((k) => k.access === "full")!.key;
  for (const [failOn, code, failures] of [["target", 0, 0], ["client", 1, 1]] as const) {
    const dir = t.testdir();
    const { proxy, stop } = await runProxy(["--target", emulator.baseUrl, "--report-dir", dir, "--quiet", "--fail-on", failOn]);
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json", "user-agent": "quirky-sdk/1.2" };
    await (await fetch(`${proxy.baseUrl}/v2/pods`, { method: "POST", headers, body: '{"name":"x","image":"y","cpu":{"id":"cpu3c","vcpuCount":2},"extra":1}' })).arrayBuffer();
    await (await fetch(`${proxy.baseUrl}/v2/pods`, { headers: { ...headers, "user-agent": "tidy-client/3" } })).arrayBuffer();
    t.equal(await stop(), code, `--fail-on ${failOn}: exit ${code}`);
    const junit = readFileSync(join(dir, "junit.xml"), "utf8");
    t.match(junit, new RegExp(`<testsuites name="cpsim conform" tests="\\d+" failures="${failures}"`), `JUnit: ${failures} failure(s)`);
    const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8")) as { rules: { id: string; status: string }[]; clients: { userAgent: string; findings: number; exchanges: number; rules: { id: string; count: number }[] }[] };
    t.equal(report.rules.find((r) => r.id === "pods.create.unknown-property")?.status, "fail", "report.json keeps every finding");
    t.same(
      report.clients.map((c) => [c.userAgent, c.exchanges, c.findings, c.rules.map((r) => `${r.id} x${r.count}`)]),
      [["quirky-sdk/1.2", 1, 1, ["pods.create.unknown-property x1"]], ["tidy-client/3", 1, 0, []]],
      "the client findings by client",
    );
  }
});

t.test("--max-capture-mb bounds the body bytes held at once; an answer past it is judged on its head and size", async (t) => {
  const big = Buffer.alloc(3 * 1024 * 1024, 0x20);
  const target = createHttpServer((_req, res) => res.writeHead(200, { "content-type": "application/json", "content-length": big.length }).end(big));
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  t.teardown(() => target.close());
  const flows: Flow[] = [];
  const proxy = await startProxy({ target: `http://127.0.0.1:${(target.address() as AddressInfo).port}`, reportDir: t.testdir(), maxCaptureBytes: 1024 * 1024 }, { onExchange: (_n, f) => flows.push(f) });
  const res = await fetch(`${proxy.baseUrl}/v2/pods`);
  t.equal((await res.arrayBuffer()).byteLength, big.length, "the whole answer reaches the client");
  await proxy.stop();
  t.equal(flows[0].response?.size, big.length, "judged on its size");
  t.equal(flows[0].response?.truncated, true, "and on its head");
  t.ok(proxy.captureBytes().peak <= 1024 * 1024, `at most the bound held (${proxy.captureBytes().peak} bytes)`);
  t.equal(proxy.captureBytes().now, 0, "every byte given back once judged");
});
