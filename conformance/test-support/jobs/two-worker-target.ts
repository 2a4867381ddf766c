/**
 * Test-only: the emulator on the wall clock whose conformance endpoint runs two workers (what a
 * correct real-time platform looks like to the job rules: a free worker takes a job at once),
 * with `defects` on or broken by `breakage`, and a lenient conform run of some rules against it.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defectsNamed } from "../../../sim/defects/defects.ts";
import { startEmulator } from "../../../sim/http/index.ts";
import { PlatformBackend } from "../../../sim/http/platform-backend.ts";
import { conform } from "../../conform.ts";
import { embeddedCatalog, embeddedKeys } from "../../embedded.ts";
import { breakBackend, type Breakage } from "./test-target.ts";

export async function twoWorkerTarget(defects: readonly string[], breakage?: Breakage) {
  return realTimeWorkersTarget(defects, { workersMin: 0, workersMax: 2 }, breakage);
}

/** The same with the conformance endpoint's workers as given (`workersMin` of them started and idle before any job). */
export async function realTimeWorkersTarget(defects: readonly string[], workers: { readonly workersMin: number; readonly workersMax: number }, breakage?: Breakage) {
  const base = embeddedCatalog();
  const catalog = { ...base, endpoints: base.endpoints.map((e) => (e.id === "conformance" ? { ...e, ...workers } : e)) };
  const emulator = await startEmulator({
    host: "127.0.0.1",
    port: 0,
    seed: 1,
    clock: "real",
    speed: 1,
    control: false,
    createBackend: (o) => {
      const inner = new PlatformBackend({ ...o, catalog });
      return breakage ? breakBackend(inner, breakage) : inner;
    },
    defects: defectsNamed([...defects]),
  });
  const keys = embeddedKeys(catalog);
  const run = (only: readonly string[]) =>
    conform({
      target: emulator.baseUrl,
      serverlessUrl: emulator.serverlessUrl,
      apiKey: keys.api,
      seed: 1,
      runs: 1,
      only: [...only],
      minCoverage: 0,
      quiet: true,
      reportDir: mkdtempSync(join(tmpdir(), "cpsim-jobs-realtime-")),
    });
  return { run, stop: () => emulator.close() };
}
