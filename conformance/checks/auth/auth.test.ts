import t from "tap";
import { runSuite } from "../../test-support/auth/run-suite.ts";

for (const profile of ["lenient", "strict"] as const) {
  t.test(`every auth and rate-limit rule passes against the emulator (${profile})`, async (t) => {
    const started = Date.now();
    const { report, exitCode } = await runSuite({ profile });
    const failed = report.rules.filter((r) => r.status === "fail");
    t.same(failed.map((r) => ({ id: r.id, expected: r.failures[0]?.evidence.expected })), [], "no rule fails");
    t.same(report.targetErrors, [], "no target errors");
    const skipped = report.rules.filter((r) => r.status === "skip").map((r) => r.id).sort();
    t.same(skipped, profile === "strict" ? ["auth.expired-key"] : ["auth.bare-key-jobs", "auth.expired-key", "ratelimit.structured-fields"], "only the rules that cannot run are skipped");
    t.equal(exitCode, 0);
    // 429-when-spent and retry-after pass only once a 429 was provoked and then waited out.
    t.equal(report.rules.find((r) => r.id === "ratelimit.retry-after")?.status, "pass", "the other account's window was spent and recovered");
    t.comment(`${profile}: ${report.requests} requests in ${Date.now() - started} ms`);
  });
}

t.test("the same seed sends the same requests", async (t) => {
  const a = await runSuite({ only: ["auth.invalid-key", "auth.malformed-key"], seed: 7 });
  const b = await runSuite({ only: ["auth.invalid-key", "auth.malformed-key"], seed: 7 });
  t.equal(a.report.requests, b.report.requests);
});
