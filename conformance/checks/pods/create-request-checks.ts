/**
 * One check per createPod request rule: fast-check draws valid bodies from the target's catalog,
 * breaks exactly that rule in each, and expects the refusal the rule allows (`accepts`: the
 * spec's status where it gives one; any 4xx where it is silent, or the emulator's status under
 * --profile strict). The error body's format is judged by the errors.* rules, not here, so a
 * target with one wrong error format fails those rules once instead of every rule here.
 * The valid part of each body holds only values the target is not known to refuse (the run's
 * value store); a refusal the store attributes to a value the breaking left as it was (a port
 * protocol the target does not take, first met here) is that value's, not the rule's: no verdict.
 * Any other refusal credits the rule only when the same body without the rule's breaking part
 * (its control, create-control-body.ts) is taken as valid by the target (support/refusal-credit.ts);
 * a rule broken in two ways (gpu-cpu-exclusive: both set, neither set) passes only when both were.
 */
import fc from "fast-check";
import type { RuleId } from "../../../sim/api/rules/index.ts";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import type { ClientResponse } from "../../client.ts";
import { registerCheck } from "../../check-registry.ts";
import { acceptedText, accepts, acceptsServed } from "../support/statuses.ts";
import { brokenCaseArb, breakable, brokenExamples, CREATE_REQUEST_RULES } from "./create-broken-bodies.ts";
import { isCapacityRefusal, speaksOfCapacity } from "./create-capacity.ts";
import { learnCatalogRefusal } from "./catalog-refusals.ts";
import { createControls } from "./create-control-body.ts";
import { PLACEMENT_RULES, placementKept } from "./create-placement-kept.ts";
import { refusalCredited } from "../support/refusal-credit.ts";
import { sendCreate } from "./create-pod-client.ts";
import { checkProperty, scaledRuns } from "./create-property.ts";
import { targetCatalog } from "./create-target-catalog.ts";
import { leaves, valueKey } from "../../values/leaves.ts";
import { noBodyReason } from "./create-valid-body.ts";

/**
 * Rules about ids and places rather than the body's shape. A target may fairly word their
 * refusal as a placement failure ("no instances available" for a GPU type it does not have),
 * so a capacity answer is accepted there when its status is.
 */
const REFERENCE_RULES: ReadonlySet<string> = new Set([
  "pods.create.unknown-gpu-type",
  "pods.create.unknown-cpu-flavor",
  "pods.create.unknown-network-volume",
  "pods.create.network-volume-data-center",
  "pods.create.unknown-data-center",
  "pods.create.global-networking-nvidia",
  "pods.create.global-networking-data-center",
  "pods.create.vcpu-valid-for-flavor",
]);

/**
 * Lenient readings that accept an answer keeping the constraint instead of a refusal: global
 * networking is "enforced upstream" and `enabled` is derived from an assigned address, so a pod
 * created with global networking left off keeps the rule as well as a refusal does. Only a pod
 * that has it enabled where it cannot be honoured breaks it.
 */
const FEATURE_LEFT_OFF: ReadonlySet<string> = new Set(["pods.create.global-networking-nvidia", "pods.create.global-networking-data-center"]);

/** Why a 2xx answer still breaks the rule under the lenient reading, or undefined when it keeps it. */
function leftOff(body: unknown): string | undefined {
  const gn = typeof body === "object" && body !== null ? (body as Record<string, unknown>)["globalNetworking"] : undefined;
  if (typeof gn !== "object" || gn === null) return "the created pod carries no globalNetworking record to show the feature left off";
  const g = gn as Record<string, unknown>;
  if (g["enabled"] !== false) return `the created pod has globalNetworking.enabled ${JSON.stringify(g["enabled"])} where it cannot be honoured`;
  if (g["ip"] !== undefined) return "the created pod has a global-network ip although enabled is false";
  return undefined;
}

/** A control the target takes as valid: created, or refused for capacity alone. */
const takenAsValid = (res: ClientResponse): boolean => (res.status >= 200 && res.status < 300) || isCapacityRefusal(res);

async function checkRequestRule(ctx: CheckContext, ruleId: RuleId): Promise<CheckOutcome | undefined> {
  const tc = await targetCatalog(ctx);
  const values = ctx.client.values;
  const arb = brokenCaseArb(ruleId, tc, values);
  if (arb === undefined) return ctx.skip(noBodyReason(tc));
  if (!breakable(arb, ctx.seed)) {
    return ctx.skip(`the target's catalog offers nothing to break this rule with (${tc.notes.join("; ")})`);
  }
  const examples = brokenExamples(ruleId, tc, ctx.seed, values);
  let judged = 0;
  const elsewhere = new Set<string>();
  /** Why a refusal was not credited, by the way the rule was broken. */
  const uncredited = new Map<string, string>();
  const judgedWays = new Set<string>();
  const outcome = await checkProperty(
    ctx,
    arb,
    async (c) => {
      fc.pre(c.broken !== undefined);
      const res = await sendCreate(ctx, { json: c.broken });
      const refusal = values.refusalOf(res.exchange);
      if (refusal !== undefined && untouched(c.valid, c.broken, refusal.pointer)) {
        elsewhere.add(`${refusal.pointer} = ${JSON.stringify(refusal.value)}`);
        return undefined;
      }
      const what = `a body that breaks ${ruleId}${c.how ? ` (${c.how})` : ""}, whose rule says: "${ctx.rule.spec}"`;
      if (res.status < 200 || res.status >= 300) {
        // A refusal proves the rule only when the body without the rule's breaking part is taken.
        const credit = await refusalCredited(ctx, { ...createControls(ruleId, c, tc), send: (body) => sendCreate(ctx, { json: body }), accepted: takenAsValid, operation: "createPod",
          ...(ruleId === "pods.create.gpu-cpu-exclusive" ? {} : { named: { body: c.broken, text: res.text } }) });
        if (!credit.credited) {
          // The control's refusal may name a catalog value the suite drew: learnt, and avoided next.
          const learnt = credit.refused ? learnCatalogRefusal(tc.refused, credit.refused.body, credit.refused) : undefined;
          uncredited.set(c.how, learnt ?? credit.why);
          return undefined;
        }
      }
      judged++;
      if (c.how) judgedWays.add(c.how);
      const expected = `${acceptedText(ctx)} refusing ${what}`;
      if (res.status >= 200 && res.status < 300) {
        if (ctx.options.profile === "lenient" && PLACEMENT_RULES.has(ruleId)) {
          const kept = placementKept(ruleId, c.broken, res.json, tc);
          if (kept === "kept") return undefined;
          if (kept !== undefined) return { expected: `${acceptedText(ctx)}, or the pod placed where the constraint holds (dataCenterIds are only preferred); ${kept}`, exchange: res.exchange };
        }
        if (ctx.options.profile === "lenient" && FEATURE_LEFT_OFF.has(ruleId)) {
          const broken = leftOff(res.json);
          return broken === undefined ? undefined : { expected: `${acceptedText(ctx)}, or the pod created with global networking left off (enabled: false); ${broken}`, exchange: res.exchange };
        }
        return { expected: `${expected}; the target accepted it`, exchange: res.exchange };
      }
      if (!(await acceptsServed(ctx, res))) return { expected, exchange: res.exchange };
      if (!REFERENCE_RULES.has(ruleId) && speaksOfCapacity(res)) {
        return { expected: `${expected}, refused for the rule itself; the answer speaks of capacity, so the target took the body as valid`, exchange: res.exchange };
      }
      return undefined;
    },
    { numRuns: scaledRuns(ctx, 0.4) + examples.length, examples },
  );
  if (outcome === undefined && judged === 0 && elsewhere.size > 0) {
    return ctx.skip(`nothing was judged: every refusal was of a value the breaking left as it was (${[...elsewhere].slice(0, 3).join("; ")})`);
  }
  if (outcome === undefined && judged === 0 && uncredited.size > 0) {
    return ctx.skip(`nothing was judged: no refusal could be credited to the rule (${[...uncredited.values()].slice(0, 3).join("; ")})`);
  }
  // A rule broken in more than one way passes only when each way was judged.
  const unjudged = [...uncredited.keys()].filter((how) => how !== "" && !judgedWays.has(how));
  if (outcome === undefined && unjudged.length > 0) {
    return ctx.skip(`only partly judged: no refusal of a body with ${unjudged.join(", ")} could be credited to the rule (${unjudged.map((h) => uncredited.get(h)).join("; ")})`);
  }
  return outcome;
}

/** Whether the leaf at `pointer` is the same in the valid body and the broken one (the breaking did not touch it). */
function untouched(valid: unknown, broken: unknown, pointer: string): boolean {
  const a = leaves(valid);
  const b = leaves(broken);
  return a.has(pointer) && b.has(pointer) && valueKey(a.get(pointer)) === valueKey(b.get(pointer));
}

for (const ruleId of CREATE_REQUEST_RULES) {
  registerCheck(ruleId, (ctx) => checkRequestRule(ctx, ruleId), { needs: { keys: ["api"] } });
}
