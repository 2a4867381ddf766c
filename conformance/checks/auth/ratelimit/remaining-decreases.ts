/**
 * ratelimit.remaining-decreases: "Each counted request lowers every window's remaining count by
 * one until it resets" (from "Rate limiting: applied per user over three windows"). fast-check
 * draws short runs of the api key's cheap requests (job health and run from the spec, GET
 * /v2/pods where served). Between two consecutive successful answers, the windows that cannot
 * have reset must all have fallen by one (a counted request) or all stayed (a request the target
 * does not count); a fall of more than one breaks the rule. A window whose r rose gave quota back
 * (a sliding window whose t names the whole quota's return does so before t) and is left out; one
 * that stayed while the others fell by one may have given one back as the request counted, so the
 * same request is sent once more at once, and only a second such pair breaks the rule. And some
 * request must count: remaining counts that never move over the whole run break it too. Nothing
 * else uses the key meanwhile (checks run one at a time); the jobs run makes are cancelled after
 * each run, outside the comparisons.
 */
import * as fc from "fast-check";
import type { CheckContext, CheckOutcome, FailureInput } from "../../../check.ts";
import type { ClientResponse, RequestSpec } from "../../../client.ts";
import { registerCheck } from "../../../check-registry.ts";
import { cancelJob } from "../cleanup.ts";
import { findFailure, fewRuns } from "../find-failure.ts";
import { is2xx, jobUrl, restUrl, stringField } from "../target.ts";
import { limitsOf } from "./read-rate-limit.ts";
import { advance } from "../../support/time.ts";
import { MAX_REAL_WAIT_S } from "./exhaustion.ts";
import { describeStep, windowSteps, type WindowStep } from "./window-steps.ts";
import { noteGiveBack } from "./gives-back.ts";

type Kind = "health" | "run" | "list";

/** Resets of a spent window waited for at most, over the whole rule. */
const MAX_WAITS = 2;

/** Health twice: the cheapest request, drawn most. */
const KINDS: readonly Kind[] = ["health", "health", "run", "list"];

const RULE = 'each counted request lowers every window\'s remaining count r by exactly one until the window resets or gives quota back (Limits: "Rate limiting: applied per user over three windows")';

type Pair = "counted" | "not-counted" | "windows-disagree" | "fell-by-more";

/** What two consecutive answers say, from the windows that cannot have reset and did not give quota back. */
function comparePair(steps: readonly WindowStep[]): Pair {
  const drops = new Set(steps.filter((s) => !s.gaveBack).map((s) => s.before - s.after));
  if ([...drops].some((d) => d > 1)) return "fell-by-more";
  if (drops.size > 1) return "windows-disagree";
  return drops.has(1) ? "counted" : "not-counted";
}

function request(ctx: CheckContext, kind: Kind): RequestSpec {
  const auth = { key: "api" as const };
  if (kind === "health") return { method: "GET", url: jobUrl(ctx, "health"), auth };
  if (kind === "run") return { method: "POST", url: jobUrl(ctx, "run"), json: { input: {} }, auth };
  return { method: "GET", url: restUrl(ctx, "/v2/pods"), auth };
}

async function remainingDecreases(ctx: CheckContext): Promise<CheckOutcome> {
  let compared = 0;
  let counted = 0;
  let lastPair: { before: ClientResponse; after: ClientResponse } | undefined;
  let waits = 0;
  const failure = await findFailure(
    ctx,
    fc.array(fc.constantFrom(...KINDS), { minLength: 2, maxLength: 5 }),
    async (kinds): Promise<FailureInput | undefined> => {
      let prev: { res: ClientResponse; at: number } | undefined;
      const jobs: string[] = [];
      try {
        for (const kind of kinds) {
          let res = await ctx.client.request(request(ctx, kind));
          let at = Date.now();
          const id = kind === "run" && is2xx(res.status) ? stringField(res.json, "id") : undefined;
          if (id) jobs.push(id);
          if (!is2xx(res.status) || !limitsOf(res.headers)) {
            // A window spent by earlier checks (quotas are the target's: small ones are legal):
            // wait for its reset, as its Retry-After says, and compare from there.
            const waitS = res.status === 429 ? Number(res.headers["retry-after"]?.trim()) : NaN;
            if (Number.isInteger(waitS) && waitS >= 0 && waits < MAX_WAITS && (ctx.controlApi || waitS <= MAX_REAL_WAIT_S)) {
              waits++;
              await advance(ctx, waitS * 1000 + (ctx.controlApi ? 0 : 250));
            }
            prev = undefined;
            continue;
          }
          if (prev) {
            const stepsOf = (a: { res: ClientResponse; at: number }, b: { res: ClientResponse; at: number }) => {
              const all = windowSteps(limitsOf(a.res.headers)!, limitsOf(b.res.headers)!, b.at - a.at);
              noteGiveBack(ctx, all);
              return all.filter((s) => !s.mayHaveReset);
            };
            let steps = stepsOf(prev, { res, at });
            let pair = comparePair(steps);
            let sequence = [prev.res.exchange];
            compared++;
            lastPair = { before: prev.res, after: res };
            if (pair === "windows-disagree") {
              // A window may have given one back just as this request counted: the same request again, at once.
              const again = await ctx.client.request(request(ctx, kind));
              const againAt = Date.now();
              const againId = kind === "run" && is2xx(again.status) ? stringField(again.json, "id") : undefined;
              if (againId) jobs.push(againId);
              if (!is2xx(again.status) || !limitsOf(again.headers)) {
                prev = undefined;
                continue;
              }
              steps = stepsOf({ res, at }, { res: again, at: againAt });
              pair = comparePair(steps);
              sequence = [prev.res.exchange, res.exchange];
              res = again;
              at = againAt;
            }
            if (pair === "windows-disagree" || pair === "fell-by-more") {
              return {
                expected: `${RULE}; between two consecutive answers to the same key ${steps.map(describeStep).join(", ")}${sequence.length > 1 ? " (the same request sent again at once gave windows that disagree as well)" : ""}`,
                exchange: res.exchange,
                sequence,
              };
            }
            if (pair === "counted") counted++;
          }
          prev = { res, at };
        }
        return undefined;
      } finally {
        for (const id of jobs) await cancelJob(ctx, id);
      }
    },
    { numRuns: fewRuns(ctx, 4), examples: [["health", "health"], ["health", "run", "list"]] as Kind[][] },
  );
  if (failure) return ctx.fail(failure);
  if (compared === 0) return ctx.skip("no two consecutive answers to the api key were 2xx with a readable RateLimit header: nothing to compare");
  if (counted === 0 && lastPair) {
    return ctx.fail({
      expected: `${RULE}; over ${compared} pairs of consecutive answers (job health, run, GET /v2/pods) no window's remaining count ever fell: no request was counted`,
      exchange: lastPair.after.exchange,
      sequence: [lastPair.before.exchange],
    });
  }
  return ctx.pass();
}

registerCheck("ratelimit.remaining-decreases", remainingDecreases, { needs: { keys: ["api"] } });
