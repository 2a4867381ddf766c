// `cpsim proxy` from its command line: usage errors exit 2; --json announces it; --max-exchanges stops it, writes the reports and exits by --fail-on; a stop signal does the same.
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import t from "tap";
import { main } from "../../sim/cli/main.ts";
import { startEmulator } from "../../sim/http/index.ts";
import { defectsNamed } from "../../sim/defects/index.ts";
import { createProxyCommand } from "./cli.ts";
import type { ProxyHandle } from "./proxy.ts";

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s) }, out, err };
}

t.test("usage and configuration errors exit 2 with a message", async (t) => {
  for (const [argv, message] of [
    [["proxy"], /--target is required/],
    [["proxy", "--target", "not a url"], /--target must be an http\(s\) URL/],
    [["proxy", "--target", "ftp://x"], /http or https/],
    [["proxy", "--target", "http://127.0.0.1:1", "--fail-on", "sometimes"], /--fail-on must be one of target, client, any, never/],
    [["proxy", "--target", "http://127.0.0.1:1", "--serverless-prefix", "/jobs"], /--serverless-prefix needs --serverless-url/],
    [["proxy", "--target", "http://127.0.0.1:1", "--shadow-writes"], /need --shadow/],
    [["proxy", "--target", "http://127.0.0.1:1", "--shadow", "emulator", "--shadow-serverless-url", "http://127.0.0.1:2"], /for a shadow given by URL/],
    [["proxy", "--target", "http://127.0.0.1:1", "--shadow", "nowhere"], /--shadow must be an http\(s\) URL/],
  ] as const) {
    const c = capture();
    t.equal(await main([...argv], c.io), 2, argv.join(" "));
    t.match(c.err.join(""), message);
  }
  const c = capture();
  t.equal(await main(["proxy", "--help"], c.io), 0);
  t.match(c.out.join(""), /Usage: cpsim proxy --target URL/);
});

t.test("a target that accepts no connection is a configuration error before the proxy listens", async (t) => {
  // A port just closed: nothing listens there.
  const closed = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
  const c = capture();
  t.equal(await main(["proxy", "--target", `http://127.0.0.1:${closed}`, "--json", "--max-duration", "1", "--report-dir", t.testdir()], c.io), 2);
  t.equal(c.err.join(""), `cpsim proxy: --target http://127.0.0.1:${closed} is unreachable (ECONNREFUSED: nothing listens there); is it running? check --target\n`);
  t.equal(c.out.join(""), "", "no JSON line: the proxy never listened");
  const emulator = await startEmulator({ clock: "manual", seed: 3, logger: false });
  t.teardown(() => emulator.close());
  const s = capture();
  t.equal(await main(["proxy", "--target", emulator.baseUrl, "--serverless-url", `http://127.0.0.1:${closed}`, "--max-duration", "1", "--report-dir", t.testdir()], s.io), 2);
  t.match(s.err.join(""), /--serverless-url http:\/\/127\.0\.0\.1:\d+ is unreachable \(ECONNREFUSED/);
});

t.test("--json, --max-exchanges and --fail-on: announced, stopped after N exchanges, reports written, exit by the side the gate counts", async (t) => {
  const emulator = await startEmulator({ clock: "manual", seed: 3, logger: false, defects: [] });
  t.teardown(() => emulator.close());
  const key = emulator.apiKeys.find((k) => k.access === "full")!.key;
  // The only finding is the client's: --fail-on target (the default) passes, client and any fail.
  for (const [failOn, code] of [["client", 1], ["any", 1], ["target", 0], ["never", 0]] as const) {
    const dir = t.testdir();
    const c = capture();
    let proxy: ProxyHandle | undefined;
    let exit: Promise<number> = Promise.resolve(-1);
    const listening = new Promise<ProxyHandle>((resolve) => {
      const cmd = createProxyCommand({ onStopSignal: () => () => {}, onListening: (p) => resolve((proxy = p)) });
      exit = cmd.run(["--target", emulator.baseUrl, "--json", "--max-exchanges", "2", "--report-dir", dir, "--fail-on", failOn, "--ready-file", join(dir, "ready.json")], c.io);
    });
    await listening;
    const announced = JSON.parse(c.out[0]) as { baseUrl: string; serverlessUrl: string };
    t.same(Object.keys(announced), ["baseUrl", "serverlessUrl", "target", "serverlessTarget"], "one JSON line");
    t.equal(announced.baseUrl, proxy!.baseUrl);
    t.equal(JSON.parse(readFileSync(join(dir, "ready.json"), "utf8")).pid, process.pid, "--ready-file holds it with the pid");
    // One request the client breaks (a createPod body with an unknown property), one fine read.
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    await (await fetch(`${announced.baseUrl}/v2/pods`, { method: "POST", headers, body: '{"name":"x","image":"y","cpu":{"id":"cpu3c","vcpuCount":2},"extra":1}' })).arrayBuffer();
    await (await fetch(`${announced.baseUrl}/v2/pods`, { headers })).arrayBuffer();
    t.equal(await exit, code, `--fail-on ${failOn}: exit ${code}`);
    t.equal(c.out.length, 1, "stdout holds the JSON line only");
    t.match(c.err.join(""), /FAIL pods\.create\.unknown-property \[client\]/, "the finding line, on stderr with --json");
    const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8")) as { requests: number; rules: { id: string; status: string }[] };
    t.equal(report.requests, 2);
    t.ok(existsSync(join(dir, "junit.xml")) && existsSync(join(dir, "report.html")), "junit.xml and report.html beside it");
    t.notOk(existsSync(join(dir, "ready.json")), "the ready file is removed at the stop");
  }
});

t.test("a stop signal ends it; --serverless-url gives the job endpoints a second port, --serverless-prefix a path", async (t) => {
  const emulator = await startEmulator({ clock: "manual", seed: 3, logger: false });
  t.teardown(() => emulator.close());
  const key = emulator.apiKeys.find((k) => k.access === "full")!.key;
  for (const prefix of [undefined, "/serverless"]) {
    const c = capture();
    let signal: () => void = () => {};
    let exit: Promise<number> = Promise.resolve(-1);
    const proxy = await new Promise<ProxyHandle>((resolve) => {
      const cmd = createProxyCommand({ onStopSignal: (stop) => ((signal = stop), () => {}), onListening: resolve });
      exit = cmd.run(["--target", emulator.baseUrl, "--serverless-url", `${emulator.serverlessUrl}/`, "--report-dir", t.testdir(), "--quiet", ...(prefix ? ["--serverless-prefix", prefix] : [])], c.io);
    });
    if (prefix) t.equal(proxy.serverlessUrl, `${proxy.baseUrl}${prefix}`, "under the prefix");
    else t.not(new URL(proxy.serverlessUrl).port, new URL(proxy.baseUrl).port, "a second port");
    const res = await fetch(`${proxy.serverlessUrl}/v2/conformance/health`, { headers: { authorization: `Bearer ${key}` } });
    t.equal(res.status, 200, "the job endpoints answer there");
    await res.arrayBuffer();
    signal();
    t.equal(await exit, 0, "no finding: exit 0");
    t.equal(proxy.exchanges(), 1);
  }
});

t.test("--shadow from the command line: a line per difference as found, the account in the summary, the section in report.json and report.html; the exit code is the target's", async (t) => {
  const target = await startEmulator({ clock: "real", seed: 3, logger: false });
  const shadow = await startEmulator({ clock: "real", seed: 3, logger: false, defects: defectsNamed(["health-counters-strings"]) });
  t.teardown(async () => {
    await target.close();
    await shadow.close();
  });
  const key = target.apiKeys.find((k) => k.access === "full")!.key;
  const dir = t.testdir();
  const c = capture();
  let signal: () => void = () => {};
  let exit: Promise<number> = Promise.resolve(-1);
  const proxy = await new Promise<ProxyHandle>((resolve) => {
    const cmd = createProxyCommand({ onStopSignal: (stop) => ((signal = stop), () => {}), onListening: resolve });
    exit = cmd.run(["--target", target.baseUrl, "--shadow", shadow.baseUrl, "--shadow-timeout", "30", "--report-dir", dir], c.io);
  });
  const res = await fetch(`${proxy.serverlessUrl}/v2/conformance/health`, { headers: { authorization: `Bearer ${key}` } });
  t.equal(typeof ((await res.json()) as { jobs: { completed: unknown } }).jobs.completed, "number", "the client got the target's answer");
  await proxy.shadow!.settled();
  signal();
  t.equal(await exit, 0, "a difference is not a finding: the target's gate passes");
  const out = c.out.join("");
  t.match(out, /shadow +http:\/\/127\.0\.0\.1:\d+ \(reads only; --shadow-writes sends writes too\)/, "the banner names the shadow");
  t.match(out, /SHADOW jobs\.health\.shape #1 GET \/v2\/conformance\/health: target 200 keeps it; shadow 200 /, "the difference's line");
  t.match(out, /shadow http:\/\/127\.0\.0\.1:\d+: 1 sent, 1 compared, 1 differing/, "the account at the stop");
  const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8")) as { shadow?: { rules: { id: string; count: number }[] } };
  t.same(report.shadow?.rules.map((r) => [r.id, r.count]), [["jobs.health.shape", 1]]);
  t.match(readFileSync(join(dir, "report.html"), "utf8"), /<section id="shadow"><h2>Shadow differences<\/h2>[^]*jobs\.health\.shape/);
});
