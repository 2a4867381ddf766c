/**
 * The suite against a different implementation: the variant target (variant-target.ts,
 * every choices.md behaviour switched, real-time pods and jobs) must pass the lenient suite with
 * zero failures, and the suite must judge on it every rule it judges on the embedded emulator,
 * but for the exceptions listed below, each with its reason. Few runs per property and a fast
 * real-time speed keep the wall time bounded.
 *
 * The run is cut into four parts by rule (PARTS), one test file each, so that tap runs them side by
 * side: the job rules wait in real time one after the other in the suite's job lane (about two
 * and a half minutes), so they make three parts; the fourth holds every other area, whose lanes
 * run side by side within the one conform run (the rate-limit rules, which spend the second
 * account's window, run with the auth rules that use that account). Each part starts its own
 * variant target, so no part's requests count against another's rate-limit windows.
 */
import { join } from "node:path";
import type { Test } from "tap";
import type { ConformanceReport } from "../../reports/conformance-report.ts";
import "../checks/index.ts";
import { checks } from "../check-registry.ts";
import { startVariant } from "./variant-target.ts";
import { conform, type ConformResult } from "../conform.ts";
import { startEmbedded } from "../embedded.ts";

/** Rules judged on the emulator but not on the variant, and why: none may be missing without a reason here. */
export const JUSTIFIED: Readonly<Record<string, string>> = {
  "jobs.retry.expired": "needs the control API to let a result expire (or --slow: real minutes)",
  "jobs.retention": "needs the control API (or --slow: 30 real minutes)",
  "jobs.retention.run": "needs the control API (or --slow: 30 real minutes)",
  "jobs.retention.runsync": "needs the control API (or --slow: a real minute)",
  "pods.action.action-enum": "the variant takes the action in the path: it has no action body to refuse",
  "pods.action.field-type": "the variant takes the action in the path: it has no action body to refuse",
};

export interface Part {
  /** Rule globs the part runs (--only); empty: every rule. */
  readonly only: readonly string[];
  /** Rule globs it leaves out (--skip). */
  readonly skip: readonly string[];
}

const CANCEL = ["jobs.cancel.*"];
const RUNSYNC_PURGE = ["jobs.runsync.*", "jobs.purge.*"];

/** The four parts, one test file each (../variant/<name>.test.ts): together every rule, each rule in one part. */
export const PARTS = {
  "not-jobs": { only: [], skip: ["jobs.*"] },
  "jobs-cancel": { only: CANCEL, skip: [] },
  "jobs-runsync-purge": { only: RUNSYNC_PURGE, skip: [] },
  "jobs-others": { only: ["jobs.*"], skip: [...CANCEL, ...RUNSYNC_PURGE] },
} as const satisfies Record<string, Part>;

/** Every rule id the suite knows: the catalog's and the registered checks'. */
export function allRuleIds(): string[] {
  return [...new Set([...checks.catalog.rules.map((r) => r.id), ...checks.list().map((c) => c.ruleId)])].sort();
}

const RUNS = 2;
/** Real time: a minute or two on a loaded machine, above the suite's default per-file limit. */
export const PART_TIMEOUT_MS = 600_000;

const judged = (r: ConformanceReport) => new Set(r.rules.filter((x) => x.status !== "skip").map((x) => x.id));

/**
 * Runs one part on the emulator and on a fresh variant target and makes the assertions the whole
 * run makes, for the part's rules: the emulator passes, zero failures and no target errors on the
 * variant, every rule judged on the emulator judged on the variant but for JUSTIFIED's. Returns the
 * variant's run for the part's own further assertions.
 */
export async function judgePartOnVariant(t: Test, part: Part): Promise<ConformResult> {
  const dir = t.testdir();
  const selection = { only: [...part.only], skip: [...part.skip] };
  const emulator = await conform({ seed: 11, runs: RUNS, reportDir: join(dir, "emulator"), ...selection }, { startEmbedded });
  t.equal(emulator.exitCode, 0, "the emulator passes");

  const variant = await startVariant({ speed: 40, seed: 11 });
  t.teardown(() => variant.stop());
  const keys = { apiKey: variant.keys.api, restrictedApiKey: variant.keys.restricted, otherApiKey: variant.keys.other };
  // One run: the suite itself runs the part's areas side by side, and keeps other requests off the
  // key while the rate-limit rules count (runs at once on one key would disturb their counting).
  const run = await conform({ target: variant.rest, serverlessUrl: variant.serverless, ...keys, seed: 11, runs: RUNS, reportDir: join(dir, "variant"), ...selection });
  const rules = run.report.rules;
  const failures = rules.filter((r) => r.status === "fail");
  t.same(
    failures.map((r) => `${r.id}: ${r.failures[0]?.evidence.expected}`),
    [],
    "zero failures on the variant",
  );
  t.equal(run.report.summary.targetErrors, 0, "no target errors");

  const onVariant = new Set(rules.filter((x) => x.status !== "skip").map((x) => x.id));
  const missing = [...judged(emulator.report)].filter((id) => !onVariant.has(id)).sort();
  const unexplained = missing.filter((id) => JUSTIFIED[id] === undefined);
  t.same(
    unexplained.map((id) => `${id}: ${rules.find((r) => r.id === id)?.reason}`),
    [],
    "every rule judged on the emulator is judged on the variant, but for the listed exceptions",
  );
  for (const id of missing) {
    const r = rules.find((x) => x.id === id)!;
    t.equal(r.status, "skip", `${id} skipped (${JUSTIFIED[id]})`);
  }
  return run;
}
