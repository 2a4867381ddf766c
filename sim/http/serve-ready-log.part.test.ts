// `cpsim serve --ready-file FILE` and `--log`, in process: the file holds the --json line once the
// server listens and is gone after it stops; --log prints one line per request.
import t from "tap";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServeCommand } from "./cli.ts";
import type { EmulatorHandle } from "./emulator.ts";

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s) }, out, err };
}

t.test("--ready-file holds the JSON line while serving; --log prints one line per request", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cpsim-ready-"));
  t.teardown(() => import("node:fs").then((fs) => fs.rmSync(dir, { recursive: true, force: true })));
  const file = join(dir, "ready.json");
  let stop: () => void = () => {};
  let listening: (e: EmulatorHandle) => void = () => {};
  const up = new Promise<EmulatorHandle>((r) => (listening = r));
  const command = createServeCommand({ onStopSignal: (s) => ((stop = s), () => {}), onListening: (e) => listening(e) });
  const c = capture();
  const exit = command.run(["--clock", "manual", "--ready-file", file, "--log"], c.io);
  const emulator = await up;
  const ready = JSON.parse(readFileSync(file, "utf8"));
  t.equal(ready.baseUrl, emulator.baseUrl);
  t.equal(ready.serverlessUrl, emulator.serverlessUrl);
  t.ok(ready.apiKeys.length > 0);
  t.equal(ready.pid, process.pid, "the pid to stop the server with");
  t.match(c.out.join(""), /listening on/, "the banner still goes to stdout");

  const key = ready.apiKeys[0].key as string;
  const pods = await fetch(`${ready.baseUrl}/v2/pods?limit=1`, { headers: { authorization: `Bearer ${key}` } });
  await pods.arrayBuffer();
  const missing = await fetch(`${ready.baseUrl}/v2/nothing-here`, { headers: { authorization: `Bearer ${key}` } });
  await missing.arrayBuffer();
  // The log line is written when the response has ended on the server side.
  // Waits for the lines, not for a time (bounded so that a missing line fails, not hangs).
  for (let i = 0; i < 3000 && c.err.join("").split("\n").filter((l) => / (GET) /.test(l)).length < 2; i++) await new Promise((r) => setTimeout(r, 10));
  const lines = c.err.join("").split("\n").filter((l) => / GET /.test(l));
  t.equal(lines.length, 2, "one line per request");
  t.match(lines[0], new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z GET /v2/pods\\?limit=1 ${pods.status} \\d+\\.\\dms$`));
  t.match(lines[1], new RegExp(`^\\S+ GET /v2/nothing-here ${missing.status} \\d+\\.\\dms$`));
  t.equal(missing.status, 404);
  const graphql = await fetch(`${ready.baseUrl}/graphql?api_key=${key}&query=${encodeURIComponent("{ myself { id } }")}`);
  await graphql.arrayBuffer();
  for (let i = 0; i < 3000 && !c.err.join("").includes("/graphql"); i++) await new Promise((r) => setTimeout(r, 10));
  const graphqlLine = c.err.join("").split("\n").find((l) => l.includes("/graphql")) ?? "";
  t.match(graphqlLine, /GET \/graphql\?api_key=REDACTED&query=/, "a key in the query is not logged");
  t.notOk(c.err.join("").includes(key), "no key anywhere in the log");

  stop();
  t.equal(await exit, 0);
  t.notOk(existsSync(file), "the ready file is removed on stop");
});

t.test("an unwritable --ready-file is a usage error that says what to do, and the server stops", async (t) => {
  const c = capture();
  const command = createServeCommand({ onStopSignal: () => () => {} });
  const code = await command.run(["--ready-file", "/nonexistent-cpsim-dir/ready.json"], c.io);
  t.equal(code, 2);
  t.match(c.err.join(""), /cannot write --ready-file \/nonexistent-cpsim-dir\/ready\.json: .*ENOENT.*give a path in a writable directory/);
});

t.test("--help documents both flags and runsync under --clock manual", async (t) => {
  const c = capture();
  t.equal(await createServeCommand().run(["--help"], c.io), 0);
  const help = c.out.join("");
  t.match(help, /--ready-file FILE/);
  t.match(help, /--log /);
  t.match(help, /runsync call then waits/);
});
