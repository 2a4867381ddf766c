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
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ConformanceReport } from "../../reports/conformance-report.ts";
import { startFamilyTarget } from "./start-family.ts";

export interface SuiteTask {
  /** Defect names to switch on; empty for the clean run. */
  readonly defects: readonly string[];
  readonly seed: number;
  readonly profile: "lenient" | "strict";
  /** Rule ids to run; empty: the whole suite. */
  readonly only?: readonly string[];
  /** Where conform writes this run's report.json, junit.xml and report.html. */
  readonly reportDir: string;
  /** A target family (target-family.ts) instead of the emulator's own conventions. */
  readonly family?: number;
}

export interface SuiteOutcome {
  /** Rules that failed, in run order. */
  readonly failing: string[];
  /** Every rule's status in this run. */
  readonly statuses: Record<string, string>;
  readonly wallTimeMs: number;
  readonly targetErrors: number;
  /** The first target errors, as `rule: code message`. */
  readonly targetErrorSamples?: readonly string[];
  /** Each failing rule's first expectation, by rule id. */
  readonly expected?: Readonly<Record<string, string>>;
}

export async function runSuite(task: SuiteTask): Promise<SuiteOutcome> {
  const started = performance.now();
  if (task.family !== undefined) return runOnFamily(task, started);
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
    return outcomeOf(report, started);
  } finally {
    await emulator.close();
  }
}

function outcomeOf(report: ConformanceReport, started: number): SuiteOutcome {
  const statuses: Record<string, string> = {};
  for (const r of report.rules) statuses[r.id] = r.status;
  return {
    failing: report.rules.filter((r) => r.status === "fail").map((r) => r.id),
    statuses,
    wallTimeMs: performance.now() - started,
    targetErrors: report.targetErrors.length,
    targetErrorSamples: report.targetErrors.slice(0, 3).map((e) => `${e.ruleId ?? "(no rule)"}: ${e.code} ${e.message}`),
    expected: Object.fromEntries(report.rules.filter((r) => r.status === "fail").map((r) => [r.id, String(r.failures[0]?.evidence.expected ?? "")])),
  };
}

/** The cell against a target family, with the profile file its owner would write for what probes cannot find. */
async function runOnFamily(task: SuiteTask, started: number): Promise<SuiteOutcome> {
  const target = await startFamilyTarget({ family: task.family!, seed: task.seed, defects: task.defects });
  try {
    await mkdir(task.reportDir, { recursive: true });
    const targetProfile = join(task.reportDir, "target-profile.json");
    await writeFile(targetProfile, JSON.stringify(target.profile));
    const { report } = await conform(
      {
        target: target.rest,
        serverlessUrl: target.serverless,
        apiKey: target.keys.api,
        restrictedApiKey: target.keys.restricted,
        otherApiKey: target.keys.other,
        endpoint: "conformance",
        seed: task.seed,
        profile: task.profile,
        reportDir: task.reportDir,
        targetProfile,
        // The target's layer and the suite share this thread: on a busy machine a 20 MB runsync
        // took past the default 30 s (as in the family tests, test-support/family-run.ts).
        timeoutMs: 180_000,
        json: false,
        only: task.only ?? [],
      },
      { controlApi: true },
    );
    return outcomeOf(report, started);
  } finally {
    await target.stop();
  }
}
