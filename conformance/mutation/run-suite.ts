/**
 * One cell of the mutation matrix: a fresh in-process emulator (manual clock, the embedded
 * conformance catalog) with the named defects switched on, and the conformance suite (or some of
 * its rules) against it through `conform()`. Returns plain data, so it can run in a worker
 * thread; a worker runs many cells one after the other, each with its own emulator.
 */
// The checks register themselves in conform's registry when imported, as `cpsim conform` does.
import "../checks/index.ts";
import { conform } from "../conform.ts";
import { embeddedCatalog, embeddedKeys } from "../embedded.ts";
import { defectsNamed } from "../../sim/defects/index.ts";
import { startEmulator } from "../../sim/http/index.ts";
import { PlatformBackend } from "../../sim/http/platform-backend.ts";

export interface SuiteTask {
  /** Defect names to switch on; empty for the clean run. */
  readonly defects: readonly string[];
  readonly seed: number;
  readonly profile: "lenient" | "strict";
  /** Rule ids to run; empty: the whole suite. */
  readonly only?: readonly string[];
  /** Where conform writes this run's report.json, junit.xml and report.html. */
  readonly reportDir: string;
}

export interface SuiteOutcome {
  /** Rules that failed, in run order. */
  readonly failing: string[];
  /** Every rule's status in this run. */
  readonly statuses: Record<string, string>;
  readonly wallTimeMs: number;
  readonly targetErrors: number;
}

export async function runSuite(task: SuiteTask): Promise<SuiteOutcome> {
  const started = performance.now();
  const catalog = embeddedCatalog();
  const keys = embeddedKeys(catalog);
  const emulator = await startEmulator({
    host: "127.0.0.1",
    port: 0,
    seed: task.seed,
    clock: "manual",
    control: true,
    createBackend: (o) => new PlatformBackend({ ...o, catalog }),
    defects: defectsNamed(task.defects),
  });
  try {
    const { report } = await conform(
      {
        target: emulator.baseUrl,
        serverlessUrl: emulator.serverlessUrl,
        apiKey: keys.api,
        restrictedApiKey: keys.restricted,
        otherApiKey: keys.other,
        endpoint: "conformance",
        seed: task.seed,
        profile: task.profile,
        reportDir: task.reportDir,
        json: false,
        only: task.only ?? [],
      },
      // The emulator serves the control API: time-based rules move its virtual clock.
      { controlApi: true },
    );
    const statuses: Record<string, string> = {};
    for (const r of report.rules) statuses[r.id] = r.status;
    return {
      failing: report.rules.filter((r) => r.status === "fail").map((r) => r.id),
      statuses,
      wallTimeMs: performance.now() - started,
      targetErrors: report.targetErrors.length,
    };
  } finally {
    await emulator.close();
  }
}
