/**
 * The job checks against the embedded emulator: every rule passes under both profiles (under the
 * lenient one the choices.md rules are skipped, and nothing else is), no target errors, and the
 * run exercises every job transition the spec names.
 */
import t from "tap";
import { SPEC_TRANSITIONS } from "../../spec-transitions.ts";
import { checks } from "../../check-registry.ts";
import { runJobs, startTarget } from "../../test-support/jobs/test-target.ts";

const jobRules = checks.list().filter((c) => c.ruleId.startsWith("jobs."));

t.test("every job rule of the catalog has a check", async (t) => {
  const catalogIds = checks.catalog.rules.map((r) => r.id).filter((id) => id.startsWith("jobs."));
  t.same(jobRules.map((c) => c.ruleId).sort(), [...catalogIds].sort());
});

for (const profile of ["lenient", "strict"] as const) {
  t.test(`the emulator passes every job rule (${profile})`, async (t) => {
    const target = await startTarget();
    t.teardown(() => target.stop());
    const started = Date.now();
    const { report, exitCode } = await runJobs(target, { profile, seed: 7 });
    const failed = report.rules.filter((r) => r.status === "fail");
    t.same(
      failed.map((r) => `${r.id}: ${r.failures[0]?.evidence.expected}`),
      [],
      "no rule fails",
    );
    t.same(report.targetErrors, [], "no target errors");
    t.equal(exitCode, 0);
    const skipped = report.rules.filter((r) => r.status === "skip");
    const choices = new Set(checks.catalog.rules.filter((r) => r.source === "choices").map((r) => r.id));
    if (profile === "strict") t.same(skipped.map((r) => `${r.id}: ${r.reason}`), [], "nothing skipped under strict");
    else t.same(skipped.filter((r) => !choices.has(r.id)).map((r) => `${r.id}: ${r.reason}`), [], "only choices.md rules skipped under lenient");
    const jobTransitions = report.coverage.transitions.filter((x) => x.machine === "job");
    t.equal(jobTransitions.length, SPEC_TRANSITIONS.filter((x) => x.machine === "job").length);
    t.same(jobTransitions.filter((x) => !x.exercised), [], "every job transition of the spec exercised");
    t.ok(report.requests < 1_000, `a modest number of requests (${report.requests})`);
    t.comment(`${profile}: ${report.requests} requests in ${Date.now() - started} ms`);
  });
}
