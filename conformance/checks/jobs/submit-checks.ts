/**
 * Rules on what `run` and `runsync` accept: the `{input: object}` body (spec) and the other body
 * keys choices.md documents (webhook, policy, s3Config; anything else refused). Each property
 * sends bodies that break exactly one rule (and carry no prototype-poisoning key, which a server
 * may refuse for its own reasons) and expects the rule's refusal; a body a target accepts by
 * mistake leaves a job behind, which the session cancels. A refusal credits the rule only when the
 * same body without the rule's breaking part (its control: `input` made an object, the extra key
 * left out, the valid body it was broken from) is accepted too (support/refusal-credit.ts); a
 * refusal whose control was refused as well judges nothing, and a property that judged nothing
 * says so as a set-up not proven.
 */
import * as fc from "fast-check";
import { breakJobSubmitRule, jobSubmitBodyArb, PAYLOAD_LIMITS } from "../../../sim/api/validate/index.ts";
import type { JobSubmitRequest } from "../../../sim/api/schemas/index.ts";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { acceptsServed, acceptedText } from "../support/statuses.ts";
import { CreditTally, refusalCredited } from "../support/refusal-credit.ts";
import { show } from "./support/job-body.ts";
import { echoInputArb, withoutPoisonKeys } from "./support/inputs.ts";
import { property, runsFor } from "./support/property.ts";
import { violated, withSession } from "./support/with-session.ts";

const BODY_KEYS = ["input", "webhook", "policy", "s3Config"];

/** A body breaking the rule, and its control: the same body without the breaking part. */
interface Broken {
  readonly body: unknown;
  readonly control: unknown;
}

/** A body with an `input` that is no object, or none at all; its control holds an empty object. */
function brokenInputArb(): fc.Arbitrary<Broken> {
  const notAnObject = fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }).map(withoutPoisonKeys),
  );
  return fc.oneof(fc.constant({}), notAnObject.map((input) => ({ input }))).map((body) => ({ body, control: { input: {} } }));
}

/** A valid body with one key besides the four choices.md lists; its control is the body without it. */
function unknownKeyArb(): fc.Arbitrary<Broken> {
  const key = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,12}$/).filter((k) => !BODY_KEYS.includes(k) && withoutPoisonKeys({ [k]: 0 })[k] === 0);
  return fc.tuple(echoInputArb(), key, fc.jsonValue({ maxDepth: 1 })).map(([input, k, v]) => ({ body: withoutPoisonKeys({ input, [k]: v }), control: { input } }));
}

/** Valid bodies without a webhook (a body accepted by mistake must not call anyone back). */
function baseBodyArb(): fc.Arbitrary<JobSubmitRequest> {
  return jobSubmitBodyArb().map((b) => {
    const { webhook: _webhook, ...rest } = b;
    return withoutPoisonKeys(rest) as JobSubmitRequest;
  });
}

function brokenBodyArb(ruleId: string): fc.Arbitrary<Broken> {
  if (ruleId === "jobs.submit.input-object") return brokenInputArb();
  if (ruleId === "jobs.submit.unknown-key") return unknownKeyArb();
  return baseBodyArb().map((b) => ({ body: breakJobSubmitRule(ruleId as Parameters<typeof breakJobSubmitRule>[0], b, { maxBytes: PAYLOAD_LIMITS.run }), control: b }));
}

/** A check that `run` (and, for the input rule, `runsync`) refuses bodies breaking `ctx.rule`. */
export async function checkSubmitBodyRule(ctx: CheckContext): Promise<CheckOutcome | void> {
  const ops = ctx.rule.id === "jobs.submit.input-object" ? (["run", "runsync"] as const) : (["run"] as const);
  const arb = fc.tuple(brokenBodyArb(ctx.rule.id), fc.constantFrom(...ops));
  const tally = new CreditTally();
  const outcome = await property(
    ctx,
    arb,
    ([{ body, control }, op]) =>
      withSession(ctx, async (session) => {
        const query = op === "runsync" ? { wait: 1000 } : undefined;
        const { res } = await session.runRaw(body, op, query);
        // First whether the refusal was served at all (a route the target lacks is no verdict, and says so).
        const refusedAsRuled = await acceptsServed(ctx, res);
        if (res.status < 200 || res.status >= 300) {
          const credit = await refusalCredited(ctx, {
            controls: [control],
            send: async (b) => (await session.runRaw(b, op, query)).res,
            accepted: (r) => r.status >= 200 && r.status < 300,
            operation: `job ${op}`,
            named: { body, text: res.text },
          });
          if (!credit.credited) return tally.notCredited(`${op} ${show(body)}`, credit);
        }
        tally.judgedOne();
        if (refusedAsRuled) return;
        violated(session, res.exchange, `${acceptedText(ctx)} for a ${op} body that breaks ${ctx.rule.id} (${ctx.rule.title}): ${show(body)}; got ${res.status}`);
      }),
    { numRuns: runsFor(ctx, 8) },
  );
  if (outcome) return outcome;
  const notProven = tally.notProven();
  return notProven === undefined ? undefined : ctx.skip(notProven);
}
