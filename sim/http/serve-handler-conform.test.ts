// The conformance handler served by `--handler` behaves like the model's: `cpsim conform
// --endpoint` passes the job rules its behaviour decides (outputs, errors, retry, streaming) with
// the JavaScript module. (A whole `--only 'jobs.*'` run, minutes of real time, passes too with
// both the module and the Python file: see docs/handler.md.)
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { run } from "../../conformance/cli.ts";
import { loadHandler } from "../handler/index.ts";
import { startEmulator } from "./emulator.ts";
import { PlatformBackend } from "./platform-backend.ts";

const RULES = ["jobs.completed-output", "jobs.failed-error", "jobs.input-echo", "jobs.retry.original-input", "jobs.stream.reassembly", "jobs.stream.incremental"];

t.test("conform --endpoint passes against the served conformance handler", async (t) => {
  const runtime = await loadHandler("fixtures/handlers/conformance-handler.mjs", { concurrency: 3 });
  const handlers = [{ endpointId: "served-conformance", runtime }];
  const emulator = await startEmulator({ clock: "real", control: false, createBackend: (o) => new PlatformBackend({ ...o, handlers }) });
  const dir = mkdtempSync(join(tmpdir(), "cpsim-served-"));
  t.teardown(async () => {
    await emulator.close();
    await runtime.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const key = emulator.apiKeys.find((k) => k.access === "full")!.key;
  const argv = ["--target", emulator.baseUrl, "--endpoint", "served-conformance", "--api-key", key, "--profile", "strict", "--seed", "3", "--report-dir", dir];
  for (const rule of RULES) argv.push("--only", rule);
  const err: string[] = [];
  const code = await run(argv, { stdout: () => undefined, stderr: (s) => err.push(s) });
  t.equal(code, 0, err.join("").slice(-2000));
  const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8")) as { rules: { id: string; status: string }[] };
  t.same(
    report.rules.map((r) => [r.id, r.status]).sort(),
    RULES.map((id) => [id, "pass"]).sort(),
  );
});
