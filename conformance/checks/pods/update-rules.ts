/**
 * The rules of a pod's PATCH that a body breaks: mount update rules 2–5 (400, 400, 400, 422:
 * the spec's own statuses, required under both profiles), mount exclusivity (400), and the field
 * rules shared with create (any 4xx under the lenient profile, the emulator's status under
 * strict). Valid cases from updatePodCaseArb are broken one rule at a time by breakUpdateRule
 * and sent to a pool pod of the kind the case names. After a refused mount change the pod is
 * read again: a refused PATCH must have left its mount as it was. A refusal credits the rule only
 * when the valid body the case was broken from is taken on the same pod, or the error names the
 * broken part alone (support/refusal-credit.ts).
 *
 * PATCH is choices.md's route: under the lenient profile, a target answering a no-op PATCH
 * with 404/405 has none and these rules are skipped (a 404 would otherwise pass as "a 4xx").
 */
import fc from "fast-check";
import type { RuleId } from "../../../sim/api/rules/index.ts";
import { breakUpdateRule, updatePodBreakers, updatePodCaseArb, type UpdateCase } from "../../../sim/api/validate/index.ts";
import { registerCheck } from "../../check-registry.ts";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { refusalCredited } from "../support/refusal-credit.ts";
import { accepts, acceptedText } from "../support/statuses.ts";
import { afterCreate } from "./lifecycle-evidence.ts";
import { getPod, jsonObject, patchPod } from "./lifecycle-pods.ts";
import { checkRequests } from "./lifecycle-property.ts";
import { settle } from "./lifecycle-run.ts";
import { readTargetCatalog } from "./lifecycle-target.ts";
import { safeCase, sameMounts, withTargetVolumes } from "./update-case.ts";
import { UpdatePool } from "./update-pool.ts";
import type { ValueStore } from "../../values/value-store.ts";

/** Runs per rule: each costs one PATCH (two for mount rules), and the pool's few creates. */
const RUNS = 10;

/** Rules whose refused body asked for a mount change: the pod is read again to see it did not happen. */
const MOUNT_RULES = new Set<string>([
  "pods.update.network-empty-array",
  "pods.update.mount-kind-fixed",
  "pods.update.volume-id-immutable",
  "pods.update.mount-partial-entry",
  "pods.update.mounts-exclusive",
]);

/** A broken case, with its control: the valid body it was broken from (refusal-credit.ts). */
type ControlledCase = UpdateCase & { readonly control: unknown };

/** The field-type rule also covers a body that is not a JSON object; the breaker makes only a wrong field type. */
function brokenCases(ruleId: RuleId, values: ValueStore): fc.Arbitrary<ControlledCase> {
  const broken = updatePodCaseArb().map((c) => {
    const safe = safeCase(c, values);
    return { ...breakUpdateRule(ruleId, safe), control: safe.body };
  });
  if (ruleId !== "pods.update.field-type") return broken;
  const notObject = fc
    .tuple(updatePodCaseArb(), fc.constantFrom<unknown>([], "name", 42, null, [{ name: "x" }]))
    .map(([c, body]) => ({ pod: c.pod, body: body as UpdateCase["body"], control: {} }));
  return fc.oneof(broken, notObject);
}

/** The body field other than mounts that a refusal's error names, when it names one and not mounts. */
function refusedFor(body: unknown, error: string): string | undefined {
  if (body === null || typeof body !== "object" || Array.isArray(body) || /mounts/i.test(error)) return undefined;
  return Object.keys(body).find((k) => k !== "mounts" && new RegExp(`(^|[^A-Za-z0-9_])/?${k}([^A-Za-z0-9_]|$)`).test(error));
}

async function brokenPatchesRefused(ctx: CheckContext, ruleId: RuleId, pool: UpdatePool): Promise<CheckOutcome> {
  let probed = false;
  /** Fields whose refusal, not the rule's, answered a PATCH. */
  const elsewhere = new Set<string>();
  const feasible = pool.feasible(brokenCases(ruleId, ctx.client.values), ctx.seed);
  if ("reason" in feasible) return ctx.skip(feasible.reason);
  const result = await checkRequests(ctx, feasible.arb, RUNS, async (c, violate) => {
    const pod = await pool.get(c.pod);
    if (!pod) return false;
    if (!probed && ctx.options.profile === "lenient") {
      probed = true;
      const missing = await pool.patchMissing(pod);
      if (missing !== undefined) throw new PatchRouteMissing(missing);
    }
    const body = withTargetVolumes(c.body, c.pod, pod, pool);
    const res = await patchPod(ctx, pod.id, body);
    const fail = (expected: string, exchange = res.exchange, earlier = [] as typeof res.exchange[]) =>
      violate(afterCreate(pod.created.exchange, pod.id, expected, exchange, earlier));
    // Lenient reading: global networking is enforced upstream, so a PATCH applied with it left
    // off (the answer's globalNetworking.enabled false) keeps the rule as well as a refusal.
    const leftOff = ruleId === "pods.update.global-networking-nvidia" && ctx.options.profile === "lenient" && res.status >= 200 && res.status < 300 &&
      (jsonObject(res)?.globalNetworking as { enabled?: unknown } | undefined)?.enabled === false;
    // A refusal whose error names another field of the body and not mounts (a port protocol the
    // target does not take, say) is that field's: its status says nothing of the mount rule.
    // The run's value store attributes it the same way (an error naming `/ports/0`, or a body that
    // differs from an accepted one only there): mounts are no open field, so such a value is another's.
    const other = MOUNT_RULES.has(ruleId) && res.status >= 400 && res.status < 500 ? (refusedFor(body, res.text) ?? ctx.client.values.refusalOf(res.exchange)?.pointer) : undefined;
    // A refusal proves the rule only when the valid body it was broken from is taken on this pod.
    let credited = true;
    if (!leftOff && other === undefined && (res.status < 200 || res.status >= 300)) {
      const credit = await refusalCredited(ctx, {
        controls: [withTargetVolumes(c.control, c.pod, pod, pool)], send: (b) => patchPod(ctx, pod.id, b), operation: `updatePod ${pod.id}`,
        accepted: (r) => r.status >= 200 && r.status < 300, named: { body, text: res.text },
      });
      if (!credit.credited) {
        credited = false;
        elsewhere.add(credit.why);
      }
    }
    if (credited && !leftOff && !accepts(ctx, res.status) && other === undefined) {
      fail(`PATCH ${JSON.stringify(body)} on a ${c.pod.kind.toUpperCase()} pod ${c.pod.mountKind === "none" ? "without mounts" : `with a ${c.pod.mountKind} mount`} is refused with ${acceptedText(ctx)} ("${ctx.rule.spec}"); got ${res.status}`);
    }
    if (MOUNT_RULES.has(ruleId)) {
      const after = await getPod(ctx, pod.id);
      const mounts = jsonObject(after)?.mounts;
      if (after.status === 200 && !sameMounts(mounts, pod.view.mounts)) {
        fail(`a refused PATCH leaves the pod's mount as it was (${JSON.stringify(pod.view.mounts)}); after ${JSON.stringify(body)} was refused it reads ${JSON.stringify(mounts)}`, after.exchange, [res.exchange]);
      }
      if (other !== undefined) {
        elsewhere.add(other);
        return false;
      }
    }
    return credited;
  });
  if (result.outcome) return result.outcome;
  if (result.judged === 0 && elsewhere.size > 0) return ctx.skip(`nothing was judged: every refusal was another's (${[...elsewhere].slice(0, 3).join("; ")})`);
  if (result.judged === 0) return ctx.skip(`no pod the rule applies to could be created: ${pool.reasons().join("; ") || "every create was refused"}`);
  return ctx.pass();
}

class PatchRouteMissing extends Error {
  constructor(readonly status: number) {
    super(`PATCH /v2/pods/{id} answered ${status}`);
  }
}

for (const ruleId of Object.keys(updatePodBreakers) as RuleId[]) {
  registerCheck(
    ruleId,
    async (ctx) => {
      const pool = new UpdatePool(ctx, await readTargetCatalog(ctx));
      try {
        return await brokenPatchesRefused(ctx, ruleId, pool);
      } catch (err) {
        if (err instanceof PatchRouteMissing) return ctx.skip(`the target has no PATCH /v2/pods/{id} (docs/choices.md): a PATCH that changes nothing answered ${err.status}`);
        throw err;
      } finally {
        await pool.cleanup();
        await settle(ctx);
      }
    },
    { needs: { keys: ["api"] } },
  );
}
