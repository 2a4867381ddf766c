/**
 * Test-only: the suite against a target family (conformance/mutation/target-family.ts) beside the
 * emulator's own conventions, and the assertions every family test makes: zero failures, and every
 * rule judged on the emulator judged on the family, but for JUSTIFIED_ON_FAMILY's.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Test } from "tap";
import type { ConformanceReport } from "../../reports/conformance-report.ts";
import "../checks/index.ts";
import { conform } from "../conform.ts";
import { startFamilyTarget } from "../mutation/start-family.ts";
import { describeConventions, type Conventions } from "../../sim/conventions/index.ts";
import type { FamilyTarget } from "../mutation/target-family.ts";
import { UNJUDGED_FOR_A_REASON } from "../mutation/space-judged.ts";

/** Rules a family may leave unjudged, and why (conformance/mutation/space-judged.ts). */
export const JUSTIFIED_ON_FAMILY = UNJUDGED_FOR_A_REASON;

export const judged = (r: ConformanceReport) => new Set(r.rules.filter((x) => x.status !== "skip").map((x) => x.id));

export async function runOn(t: Test, target: FamilyTarget, only: string[], profile: object | undefined, name: string, suiteProfile: "lenient" | "strict" = "lenient") {
  const dir = t.testdir();
  let targetProfile: string | undefined;
  if (profile) {
    targetProfile = join(dir, `${name}-profile.json`);
    await writeFile(targetProfile, JSON.stringify(profile));
  }
  return conform(
    {
      target: target.rest,
      serverlessUrl: target.serverless,
      apiKey: target.keys.api,
      restrictedApiKey: target.keys.restricted,
      otherApiKey: target.keys.other,
      seed: 5,
      runs: 3,
      // The target, its family's wrapper and the suite share this process: on a busy machine a
      // 20 MB runsync took past the default 30 s (two clones' npm test at a load average of 18).
      timeoutMs: 180_000,
      only,
      profile: suiteProfile,
      reportDir: join(dir, name),
      ...(targetProfile ? { targetProfile } : {}),
    },
    { controlApi: true },
  );
}

export async function reference(t: Test, only: string[], suiteProfile: "lenient" | "strict" = "lenient") {
  const emulator = await startFamilyTarget({ family: 0 });
  t.teardown(() => emulator.stop());
  const run = await runOn(t, emulator, only, undefined, "emulator", suiteProfile);
  t.equal(run.exitCode, 0, "the emulator's own conventions pass");
  return judged(run.report);
}

export function judgesAsTheEmulator(t: Test, c: Conventions, report: ConformanceReport, onEmulator: ReadonlySet<string>) {
  const failures = report.rules.filter((r) => r.status === "fail");
  t.same(failures.map((r) => `${r.id}: ${r.failures[0]?.evidence.expected}`), [], `zero failures (${describeConventions(c)})`);
  const justified = JUSTIFIED_ON_FAMILY(c);
  const onFamily = judged(report);
  const unexplained = [...onEmulator].filter((id) => !onFamily.has(id) && justified[id] === undefined).sort();
  t.same(unexplained.map((id) => `${id}: ${report.rules.find((r) => r.id === id)?.reason}`), [], "every rule judged on the emulator is judged on the family");
}

