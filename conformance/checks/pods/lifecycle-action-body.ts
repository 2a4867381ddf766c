/**
 * The action body's rules: `{"action": "start" | "stop" | "restart" | "terminate"}` and nothing
 * else. Valid bodies from sim/api/validate's podActionBodyArb are broken one rule at a time by
 * breakPodActionRule and sent to a pod the check created; each must be refused with the rule's
 * status (any 4xx under the lenient profile, 422 under strict). A refusal credits the rule only
 * when the valid body it was broken from (`{action}`, an action the pod's `actions` list offers
 * at that moment) is taken on the same pod (support/refusal-credit.ts); a rule none of whose
 * refusals could be credited is skipped as a set-up not reached, never passed.
 *
 * The body is choices.md's (the spec shows no payload of the actions): all four rules are judged
 * under --profile strict only (two are choices.md's, action-enum and field-type carry strictOnly).
 */
import fc from "fast-check";
import type { RuleId } from "../../../sim/api/rules/index.ts";
import { breakPodActionRule } from "../../../sim/api/validate/index.ts";
import { registerCheck } from "../../check-registry.ts";
import { actionInPath } from "../../target-facts/index.ts";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { accepts, acceptedText } from "../support/statuses.ts";
import { afterCreate } from "./lifecycle-evidence.ts";
import { createFixturePod, isFixture, type FixturePod } from "./lifecycle-fixture-pod.ts";
import { checkRequests } from "./lifecycle-property.ts";
import { getPod, isSuccess, jsonObject, podAction, terminatePod } from "./lifecycle-pods.ts";
import { CreditTally, refusalCredited } from "../support/refusal-credit.ts";
import type { PodAction } from "../../../sim/api/schemas/index.ts";
import { settle } from "./lifecycle-run.ts";
import { readTargetCatalog } from "./lifecycle-target.ts";

const RUNS = 8;
/** terminate is left out of the valid bodies broken: a target wrongly accepting one would lose the pod for the next runs. */
const baseBody = fc.constantFrom("start" as const, "stop" as const, "restart" as const).map((action) => ({ action }));

const WHAT: Readonly<Record<string, string>> = {
  "pods.action.unknown-property": "a body with a key besides `action`",
  "pods.action.action-required": "a body without `action`",
  "pods.action.action-enum": "an `action` other than start, stop, restart or terminate",
  "pods.action.field-type": "a body that is not a JSON object",
};

async function brokenBodiesRefused(ctx: CheckContext, ruleId: RuleId, pod: FixturePod): Promise<CheckOutcome> {
  if (actionInPath(ctx.facts)) {
    return ctx.skip(`the target takes no action body (podActionPath ${ctx.facts.podActionPath.value}, ${ctx.facts.podActionPath.source}: the action in the path or a desired status), so it has no action body to refuse`);
  }
  const tally = new CreditTally();
  const result = await checkRequests(ctx, baseBody, RUNS, async (drawn, violate) => {
    // The action the pod's read offers first; then the others: a target whose reads lag its
    // actions (the spec leaves when an action shows open) may refuse that one's control for its status.
    const first = await offered(ctx, pod.id, drawn.action);
    for (const action of [first, ...(["start", "stop", "restart"] as const).filter((a) => a !== first)]) {
      const body = { action };
      const broken = breakPodActionRule(ruleId, body);
      const res = await podAction(ctx, pod.id, body.action, broken);
      if (!isSuccess(res.status)) {
        const credit = await refusalCredited(ctx, {
          controls: [body],
          send: (b) => podAction(ctx, pod.id, b.action, b),
          accepted: (r) => isSuccess(r.status),
          operation: `podAction ${pod.id}`,
          named: { body: broken, text: res.text },
        });
        if (!credit.credited) {
          tally.notCredited(JSON.stringify(broken), credit);
          continue;
        }
      }
      tally.judgedOne();
      if (!accepts(ctx, res.status)) {
        violate(afterCreate(pod.created.exchange, pod.id, `${WHAT[ruleId]} (${JSON.stringify(broken)}) is refused with ${acceptedText(ctx)}; got ${res.status}`, res.exchange));
      }
      return true;
    }
    return false;
  });
  if (result.outcome) return result.outcome;
  const notProven = tally.notProven();
  return notProven === undefined ? ctx.pass() : ctx.skip(notProven);
}

/**
 * The action drawn when the pod's `actions` list offers it (or when the pod cannot be read), else
 * the first of start, stop and restart it offers: the body broken must be one the pod would take
 * now, so that its control (the unbroken body) can be accepted.
 */
async function offered(ctx: CheckContext, id: string, drawn: PodAction): Promise<PodAction> {
  const read = await getPod(ctx, id);
  const actions = read.status === 200 ? jsonObject(read)?.["actions"] : undefined;
  if (!Array.isArray(actions) || actions.includes(drawn)) return drawn;
  return (["start", "stop", "restart"] as const).find((a) => actions.includes(a)) ?? drawn;
}

for (const ruleId of Object.keys(WHAT) as RuleId[]) {
  registerCheck(
    ruleId,
    async (ctx) => {
      const target = await readTargetCatalog(ctx);
      let pod = await createFixturePod(ctx, target, { kind: "cpu", mountKind: "none" });
      if (!isFixture(pod)) pod = await createFixturePod(ctx, target, { kind: "gpu", mountKind: "none" });
      if (!isFixture(pod)) return ctx.skip(pod.reason);
      try {
        return await brokenBodiesRefused(ctx, ruleId, pod);
      } finally {
        await terminatePod(ctx, pod.id);
        await settle(ctx);
      }
    },
    { needs: { keys: ["api"] } },
  );
}
