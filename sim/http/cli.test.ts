// `cpsim serve`: flags onto options, the --json first line, the banner, stopping on a signal,
// port in use (exit 2), and the same as a real process receiving SIGTERM.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { packageRoot } from "../package-root.ts";
import t from "tap";
import { commands } from "../cli/main.ts";
import { UsageError } from "../cli/args.ts";
import { createServeCommand } from "./cli.ts";
import type { EmulatorHandle } from "./emulator.ts";
import { isLoopbackHost } from "./options.ts";
import { createTestBackend, testApiKeys } from "./test-backend.ts";
import { call } from "./test-helpers.ts";

const root = packageRoot;

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s) }, out, err };
}

/** Runs the command in-process; `stop()` plays the part of SIGINT/SIGTERM. */
function start(argv: string[]) {
  const c = capture();
  let stop: (() => void) | undefined;
  let resolveListening: (e: EmulatorHandle) => void = () => undefined;
  const listening = new Promise<EmulatorHandle>((r) => (resolveListening = r));
  const command = createServeCommand({
    createBackend: createTestBackend,
    onStopSignal: (s) => {
      stop = s;
      return () => undefined;
    },
    onListening: resolveListening,
  });
  const exit = command.run(argv, c.io);
  return { ...c, exit, listening, stop: () => stop?.() };
}

t.test("--json: the first line of stdout is one JSON object; a stop signal exits 0", async (t) => {
  const r = start(["--json", "--clock", "manual", "--seed", "42"]);
  const emulator = await r.listening;
  const first = r.out.join("").split("\n")[0];
  const info = JSON.parse(first);
  t.same(Object.keys(info), ["baseUrl", "serverlessUrl", "apiKeys"]);
  t.match(info.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
  t.equal(info.serverlessUrl, info.baseUrl);
  t.same(info.apiKeys, testApiKeys);
  t.equal(emulator.options.seed, 42);
  t.equal(emulator.options.clock, "manual");
  t.equal((await call(info.baseUrl, "GET", "/_sim/clock")).body.clock, "manual");
  r.stop();
  t.equal(await r.exit, 0);
  t.match(r.err.join(""), /stopped/);
});

t.test("the banner names the URLs and every key", async (t) => {
  const r = start(["--speed", "60", "--no-control", "--port", "0", "--log"]);
  const emulator = await r.listening;
  const text = r.out.join("");
  t.match(text, `listening on ${emulator.baseUrl}`);
  t.match(text, `official SDKs: ${emulator.serverlessUrl}/v2`);
  t.match(text, "speed 60");
  t.match(text, "control off");
  t.match(text, /\n  reproduce with: npx cpsim serve --seed 1 --clock real --speed 60 --no-control\n/, "every flag that shapes the run, none that only prints or listens");
  for (const k of testApiKeys) t.match(text, k.key);
  t.equal((await call(emulator.baseUrl, "GET", "/_sim/clock")).status, 404);
  r.stop();
  t.equal(await r.exit, 0);
});

t.test("a port in use exits 2 with a clear message", async (t) => {
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
  t.teardown(() => blocker.close());
  const port = (blocker.address() as AddressInfo).port;
  const c = capture();
  const code = await createServeCommand({ createBackend: createTestBackend }).run(["--port", String(port)], c.io);
  t.equal(code, 2);
  t.match(c.err.join(""), `port ${port} on 127.0.0.1 is already in use`);
});

t.test("bad flags are usage errors; --help exits 0", async (t) => {
  const command = createServeCommand({ createBackend: createTestBackend });
  const c = capture();
  await t.rejects(command.run(["--speed", "0"], c.io), UsageError);
  await t.rejects(command.run(["--clock", "fast"], c.io), UsageError);
  await t.rejects(command.run(["--port", "70000"], c.io), UsageError);
  await t.rejects(command.run(["--fixtures", "/no/such/dir"], c.io), UsageError);
  t.equal(await command.run(["--help"], c.io), 0);
  t.match(c.out.join(""), /Usage: cpsim serve/);
});

t.test("a non-loopback host gets a warning", async (t) => {
  // 192.0.2.1 (TEST-NET-1) is never assigned to this machine: the warning is printed, then the
  // bind fails, so the test never exposes anything.
  const c = capture();
  const command = createServeCommand({ createBackend: createTestBackend });
  await t.rejects(command.run(["--host", "192.0.2.1", "--json"], c.io), { code: "CPSIM_ERR_LISTEN", exitCode: 2 });
  t.match(c.err.join(""), /warning: --host 192\.0\.2\.1 exposes the emulator, its fixed API keys and its control API beyond this machine/);
  t.equal(c.out.join(""), "", "nothing on stdout");
  t.equal(isLoopbackHost("0.0.0.0"), false);
  t.equal(isLoopbackHost("::"), false);
  for (const h of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"]) t.equal(isLoopbackHost(h), true, h);
});

/** Spawns a serve process and resolves with its first stdout line. */
function spawnServe(args: string[]) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d) => {
      stdout += d;
      const nl = stdout.indexOf("\n");
      if (nl !== -1) resolve(stdout.slice(0, nl));
    });
    child.on("exit", () => reject(new Error(`exited before printing: ${stderr}`)));
  });
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  return { child, firstLine, exited, stderr: () => stderr };
}

t.test("as a process: --json first line, serves, SIGTERM exits 0", async (t) => {
  const p = spawnServe(["--import", "tsx", "sim/http/test-serve-main.ts", "--json", "--clock", "manual"]);
  const info = JSON.parse(await p.firstLine);
  t.match(info, { baseUrl: /^http:\/\/127\.0\.0\.1:\d+$/ });
  t.equal((await call(info.baseUrl, "POST", "/v2/echo", { body: { a: 1 } })).status, 200);
  p.child.kill("SIGTERM");
  t.equal(await p.exited, 0);
  t.match(p.stderr(), /stopped/);
});

t.test("as a process: SIGINT exits 0 too", async (t) => {
  const p = spawnServe(["--import", "tsx", "sim/http/test-serve-main.ts", "--json"]);
  await p.firstLine;
  p.child.kill("SIGINT");
  t.equal(await p.exited, 0);
});

t.test("bin/cpsim.js serve (once the dispatcher lists it)", { skip: commands.serve === undefined ? "serve is not in sim/cli/main.ts commands yet" : false }, async (t) => {
  const p = spawnServe(["bin/cpsim.js", "serve", "--help"]);
  t.match(await p.firstLine, /^cpsim serve: /);
  t.equal(await p.exited, 0);
});
