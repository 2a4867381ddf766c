/**
 * ratelimit.per-user: the limits are "applied per user", so the api key's requests do not
 * spend the other account's windows. fast-check draws how many api-key requests to send
 * between two requests of the other key; the other key's windows may fall by one (its own
 * second request) and no more, unless they may have reset in between.
 */
import * as fc from "fast-check";
import type { CheckContext, CheckOutcome, FailureInput } from "../../../check.ts";
import type { Exchange } from "../../../recorder.ts";
import { registerCheck } from "../../../check-registry.ts";
import { findFailure, fewRuns } from "../find-failure.ts";
import { is2xx, jobUrl } from "../target.ts";
import { limitsOf } from "./read-rate-limit.ts";
import { describeStep, windowSteps } from "./window-steps.ts";

async function perUser(ctx: CheckContext): Promise<CheckOutcome> {
  let compared = 0;
  const health = { method: "GET", url: jobUrl(ctx, "health") } as const;
  const failure = await findFailure(
    ctx,
    fc.integer({ min: 1, max: 5 }),
    async (k): Promise<FailureInput | undefined> => {
      const first = await ctx.client.request({ ...health, auth: { key: "other" } });
      const started = Date.now();
      const between: Exchange[] = [];
      for (let i = 0; i < k; i++) between.push((await ctx.client.request({ ...health, auth: { key: "api" } })).exchange);
      const second = await ctx.client.request({ ...health, auth: { key: "other" } });
      const before = is2xx(first.status) ? limitsOf(first.headers) : undefined;
      const after = is2xx(second.status) ? limitsOf(second.headers) : undefined;
      if (!before || !after) return undefined;
      compared++;
      const wrong = windowSteps(before, after, Date.now() - started).filter((s) => !s.mayHaveReset && s.after < s.before - 1);
      if (!wrong.length) return undefined;
      return {
        expected: `the other account's windows fall by at most one (its own request) while the api key sends ${k} request(s): limits are "applied per user" (Limits); ${wrong.map(describeStep).join(", ")}`,
        exchange: second.exchange,
        sequence: [first.exchange, ...between],
      };
    },
    { numRuns: fewRuns(ctx, 3), examples: [3] },
  );
  if (failure) return ctx.fail(failure);
  return compared === 0 ? ctx.skip("the other key's job health answers were not 2xx with a readable RateLimit header: nothing to compare") : ctx.pass();
}

registerCheck("ratelimit.per-user", perUser, { needs: { keys: ["api", "other"] } });
