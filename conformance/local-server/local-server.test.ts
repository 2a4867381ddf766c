// `cpsim conform --local-server URL` against cpsim's own local test server running the conformance
// handler (every local.* rule passes, the program's rules through `cpsim handler`), against one
// whose handler always fails (local.runsync fails), and without --local-handler (the program's
// rules are skipped with the reason).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t, { type Test } from "tap";
import { loadHandler } from "../../sim/handler/index.ts";
import { startLocalServer } from "../../sim/http/local-server/local-server.ts";
import { run } from "../cli.ts";

const LOCAL_RULES = ["local.default-address", "local.runsync", "local.run-placeholder", "local.test-input", "local.status-runs-once", "local.exit-code"];

async function localServer(t: Test, file: string): Promise<string> {
  const runtime = await loadHandler(file);
  const server = await startLocalServer(runtime, { host: "127.0.0.1", port: 0 });
  t.teardown(async () => {
    await server.close();
    await runtime.close();
  });
  return server.url;
}

async function conform(t: Test, argv: string[]) {
  const dir = mkdtempSync(join(tmpdir(), "cpsim-local-conform-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const err: string[] = [];
  const code = await run([...argv, "--report-dir", dir, "--seed", "7"], { stdout: () => undefined, stderr: (s) => err.push(s) });
  const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8")) as { rules: { id: string; status: string; failures: { evidence: { expected: string } }[]; reason?: string }[] };
  return { code, report, rules: new Map(report.rules.map((r) => [r.id, r])), err: err.join("") };
}

t.test("cpsim's local test server passes every local-server rule", async (t) => {
  const url = await localServer(t, "fixtures/handlers/conformance-handler.mjs");
  const r = await conform(t, ["--local-server", url, "--local-handler", "fixtures/handlers/conformance-handler.mjs", "--profile", "strict"]);
  t.equal(r.code, 0, r.err);
  t.same([...r.rules.keys()].sort(), [...LOCAL_RULES].sort(), "only the local.* rules run");
  for (const id of LOCAL_RULES) {
    const rule = r.rules.get(id)!;
    // Port 8000 may be taken on a shared machine: that one rule then skips, saying so.
    const ok = rule.status === "pass" || (id === "local.default-address" && rule.status === "skip");
    t.ok(ok, `${id}: ${rule.status}`);
  }
});

t.test("a server whose handler always fails breaks local.runsync; without --local-handler the program's rules skip", async (t) => {
  const url = await localServer(t, "fixtures/handlers/fail.mjs");
  const r = await conform(t, ["--local-server", url, "--profile", "strict"]);
  t.equal(r.code, 1);
  t.equal(r.rules.get("local.runsync")?.status, "fail");
  t.match(r.rules.get("local.runsync")?.failures[0]?.evidence.expected, /"status": "COMPLETED"/);
  for (const id of ["local.default-address", "local.test-input", "local.exit-code"]) t.equal(r.rules.get(id)?.status, "skip", id);
  t.match(r.rules.get("local.exit-code")?.reason, /needs --local-server URL and --local-handler FILE/);
});
