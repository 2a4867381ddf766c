/** Registers the three rules judged by spending the other account's window (exhaustion.ts). */
import type { CheckContext, CheckOutcome } from "../../../check.ts";
import { registerCheck } from "../../../check-registry.ts";
import { exhaustion, type ExhaustionVerdicts } from "./exhaustion.ts";

function fromVerdict(pick: (v: ExhaustionVerdicts) => ExhaustionVerdicts[keyof ExhaustionVerdicts]) {
  return async (ctx: CheckContext): Promise<CheckOutcome> => {
    const verdict = pick(await exhaustion(ctx));
    if (verdict.kind === "skip") return ctx.skip(verdict.reason);
    if (verdict.kind === "fail") return ctx.fail(...verdict.failures);
    return ctx.pass();
  };
}

const needs = { keys: ["other"] as const };
registerCheck("ratelimit.429-when-spent", fromVerdict((v) => v.whenSpent), { needs: { keys: [...needs.keys] } });
registerCheck("ratelimit.retry-after", fromVerdict((v) => v.retryAfter), { needs: { keys: [...needs.keys] } });
registerCheck("ratelimit.429-detail-names-window", fromVerdict((v) => v.detail), { needs: { keys: [...needs.keys] } });
