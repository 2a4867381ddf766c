/**
 * pods.update.mounts-omitted-unchanged, mount update rule 1: "Omitting `mounts` or sending an
 * empty object leaves the mount unchanged." Valid PATCH bodies from updatePodCaseArb that omit
 * `mounts` or send `{}` go to pods without mounts, with a persistent mount and with a network
 * mount; after each accepted one the pod's mount (read before and after, and in the answer when
 * it is a Pod) must be exactly what it was. A body with `mounts: {}` refused as invalid (400 or
 * 422) breaks the rule too: the spec makes it a no-op, not an error; but only when the error names
 * mounts or the same body without `mounts` is accepted, so a refusal of another field of the
 * body is never blamed on `mounts: {}`.
 */
import fc from "fast-check";
import { updatePodCaseArb, type UpdateCase } from "../../../sim/api/validate/index.ts";
import { registerCheck } from "../../check-registry.ts";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { afterCreate } from "./lifecycle-evidence.ts";
import { getPod, isSuccess, jsonObject, patchPod, routeMissing } from "./lifecycle-pods.ts";
import { checkRequests } from "./lifecycle-property.ts";
import { settle } from "./lifecycle-run.ts";
import { readTargetCatalog } from "./lifecycle-target.ts";
import { safeCase, sameMounts } from "./update-case.ts";
import { UpdatePool } from "./update-pool.ts";
import type { ValueStore } from "../../values/value-store.ts";

const RUNS = 10;
const RULE = '"Omitting `mounts` or sending an empty object leaves the mount unchanged."';

/** Valid cases that omit mounts or send `{}`: updatePodCaseArb's "absent" and "empty" mounts. */
const cases = (values: ValueStore): fc.Arbitrary<UpdateCase> => fc
  .tuple(updatePodCaseArb(), fc.boolean())
  .map(([c, empty]) => {
    const safe = safeCase(c, values);
    const body = { ...(safe.body as Record<string, unknown>) };
    delete body.mounts;
    if (empty) body.mounts = {};
    return { pod: safe.pod, body: body as UpdateCase["body"] };
  });

async function mountsKept(ctx: CheckContext, pool: UpdatePool): Promise<CheckOutcome> {
  let routeStatus: number | undefined;
  const feasible = pool.feasible(cases(ctx.client.values), ctx.seed);
  if ("reason" in feasible) return ctx.skip(feasible.reason);
  const result = await checkRequests(ctx, feasible.arb, RUNS, async (c, violate) => {
    if (routeStatus !== undefined) return false;
    const pod = await pool.get(c.pod);
    if (!pod) return false;
    const before = await getPod(ctx, pod.id);
    const mounts = jsonObject(before)?.mounts;
    if (before.status !== 200 || mounts === undefined) return false;
    const res = await patchPod(ctx, pod.id, c.body);
    const fail = (expected: string, exchange = res.exchange, earlier = [before.exchange]) =>
      violate(afterCreate(pod.created.exchange, pod.id, expected, exchange, earlier));
    const hasEmpty = "mounts" in (c.body as object);
    // The pod answered GET a moment ago: 404/405 here is a missing route (choices.md's updatePod).
    if (routeMissing(res.status)) {
      if (ctx.options.profile === "strict") fail(`PATCH /v2/pods/{id} (docs/choices.md updatePod, strict profile) answers 200 with the Pod; got ${res.status}`);
      routeStatus = res.status;
      return false;
    }
    if (!isSuccess(res.status)) {
      // A refusal the run's value store attributes to a value of an open field (an error naming
      // `/ports/0`) is that value's: no verdict, and the next bodies avoid it.
      if (ctx.client.values.refusalOf(res.exchange) !== undefined) return false;
      if (hasEmpty && (res.status === 400 || res.status === 422)) {
        // Blame `mounts: {}` only when the error names mounts, or when the same body without it
        // is accepted: a refusal of another field (a port protocol the target does not take, say)
        // is no verdict on this rule.
        if (!/mounts/i.test(res.text)) {
          const { mounts: _mounts, ...without } = c.body as Record<string, unknown>;
          const control = await patchPod(ctx, pod.id, without);
          if (!isSuccess(control.status)) return false;
          fail(
            `a PATCH sending mounts as {} is valid and leaves the mount unchanged (${RULE}); it was refused with ${res.status}, while the same body without mounts was accepted (${control.status})`,
            res.exchange,
            [before.exchange, control.exchange],
          );
        }
        fail(`a PATCH sending mounts as {} is valid and leaves the mount unchanged (${RULE}); it was refused with ${res.status}, naming mounts`);
      }
      // Refused for a reason of the target's own (a pod in the wrong state, a lock ...): nothing to judge.
      return false;
    }
    const answered = jsonObject(res)?.mounts;
    if (res.status === 200 && answered !== undefined && !sameMounts(answered, mounts)) {
      fail(`${RULE} The answer to PATCH ${JSON.stringify(c.body)} shows mounts ${JSON.stringify(answered)}, not ${JSON.stringify(mounts)}`);
    }
    const after = await getPod(ctx, pod.id);
    const now = jsonObject(after)?.mounts;
    if (after.status === 200 && !sameMounts(now, mounts)) {
      fail(`${RULE} After PATCH ${JSON.stringify(c.body)} the pod's mounts are ${JSON.stringify(now)}, not ${JSON.stringify(mounts)}`, after.exchange, [before.exchange, res.exchange]);
    }
    return true;
  });
  if (result.outcome) return result.outcome;
  if (routeStatus !== undefined && result.judged === 0) return ctx.skip(`the target has no PATCH /v2/pods/{id} (docs/choices.md): it answered ${routeStatus}`);
  if (result.judged === 0) return ctx.skip(`no PATCH could be judged: ${pool.reasons().join("; ") || "every PATCH was refused for reasons of the target's own"}`);
  return ctx.pass();
}

registerCheck(
  "pods.update.mounts-omitted-unchanged",
  async (ctx) => {
    const pool = new UpdatePool(ctx, await readTargetCatalog(ctx));
    try {
      return await mountsKept(ctx, pool);
    } finally {
      await pool.cleanup();
      await settle(ctx);
    }
  },
  { needs: { keys: ["api"] } },
);
