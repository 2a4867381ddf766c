/**
 * The action body's rules: `{"action": "start" | "stop" | "restart" | "terminate"}` and nothing
 * else. Valid bodies from sim/api/validate's podActionBodyArb are broken one rule at a time by
 * breakPodActionRule and sent to a pod the check created; each must be refused with the rule's
 * status (any 4xx under the lenient profile, 422 under strict).
 *
 * The route is choices.md's: under the lenient profile a target that answers a valid action
 * with 404/405 has none, and these rules are skipped (a 404 would otherwise pass as "a 4xx").
 */
import fc from "fast-check";
import type { RuleId } from "../../../sim/api/rules/index.ts";
import { breakPodActionRule } from "../../../sim/api/validate/index.ts";
import { registerCheck } from "../../check-registry.ts";
import { actionInPath, missingFact } from "../../target-facts/index.ts";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { accepts, acceptedText } from "../support/statuses.ts";
import { afterCreate } from "./lifecycle-evidence.ts";
import { createFixturePod, isFixture, type FixturePod } from "./lifecycle-fixture-pod.ts";
import { checkRequests } from "./lifecycle-property.ts";
import { podAction, routeMissing, terminatePod } from "./lifecycle-pods.ts";
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
  if (ctx.options.profile === "lenient") {
    const probe = await podAction(ctx, pod.id, "stop");
    if (routeMissing(probe.status)) return ctx.skip(missingFact("podActionPath", `a valid stop on ${ctx.facts.podActionPath.value} answered ${probe.status}`));
  }
  const result = await checkRequests(ctx, baseBody, RUNS, async (body, violate) => {
    const broken = breakPodActionRule(ruleId, body);
    const res = await podAction(ctx, pod.id, body.action, broken);
    if (!accepts(ctx, res.status)) {
      violate(afterCreate(pod.created.exchange, pod.id, `${WHAT[ruleId]} (${JSON.stringify(broken)}) is refused with ${acceptedText(ctx)}; got ${res.status}`, res.exchange));
    }
    return true;
  });
  return result.outcome ?? ctx.pass();
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
