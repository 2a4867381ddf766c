/** Registers the four rules judged on the headers of successful answers (header-rules.ts). */
import type { CheckContext, CheckOutcome } from "../../../check.ts";
import type { ClientResponse } from "../../../client.ts";
import { registerCheck } from "../../../check-registry.ts";
import { policyWindowProblems, presenceProblem, structuredFieldProblems, wellFormedProblems } from "./header-rules.ts";
import { judgeSuccesses, noSuccessReason } from "./success-samples.ts";

function headerCheck(expected: string, problems: (res: ClientResponse) => readonly string[], needsBoth = true) {
  return async (ctx: CheckContext): Promise<CheckOutcome> => {
    const { failure, judged } = await judgeSuccesses(
      ctx,
      (res) => {
        // Absent headers are ratelimit.headers-present's failure, not every rule's.
        if (needsBoth && presenceProblem(res)) return undefined;
        const found = problems(res);
        return found.length ? found.join("; ") : undefined;
      },
      expected,
    );
    if (failure) return ctx.fail(failure);
    return judged === 0 ? ctx.skip(noSuccessReason()) : ctx.pass();
  };
}

registerCheck(
  "ratelimit.headers-present",
  headerCheck(
    'RateLimit and RateLimit-Policy on every successful answer ("Both headers also accompany successful responses", Limits)',
    (res) => [presenceProblem(res)].filter((p): p is string => p !== undefined),
    false,
  ),
);
registerCheck(
  "ratelimit.headers-well-formed",
  headerCheck(
    "RateLimit with one member per window carrying remaining `r` and seconds to reset `t`, RateLimit-Policy with one member per window carrying quota `q` and window length `w`, the same windows in both (Limits)",
    wellFormedProblems,
  ),
);
registerCheck(
  "ratelimit.structured-fields",
  headerCheck('both headers as IETF structured-field lists (RFC 8941), e.g. `"minute";r=59;t=12, "hour";r=2999;t=1812` (docs/choices.md, Rate limits)', structuredFieldProblems),
);
registerCheck(
  "ratelimit.policy-windows",
  headerCheck(
    "exactly the windows `minute`, `hour` and `day` in both headers, with window lengths w of 60, 3600 and 86400 seconds (Limits: \"three windows, `minute`, `hour` and `day`\", \"(60, 3600, 86400)\")",
    policyWindowProblems,
  ),
);
