/**
 * pods.locked-no-stop: "locked: when true the pod cannot be stopped or reset". A pod is created,
 * given time to reach RUNNING, locked by PATCH (choices.md's route: without it the rule cannot be
 * set up and is skipped), and then stop and restart must both be refused, and the pod must not
 * be EXITED afterwards. The spec names no status for the refusal: any 4xx (409 is the emulator's).
 *
 * A target without the action route answers 404/405 to the stop too; to tell that from a refusal,
 * the pod is unlocked and stopped again: if that works, the first answer was a refusal.
 *
 * Lenient reading: a 2xx that visibly keeps the lock (the pod reads as before: same status, same
 * startedAt, still locked) keeps the rule as well as a refusal does; strict requires the refusal.
 */
import { registerCheck } from "../../check-registry.ts";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { accepts, acceptedText } from "../support/statuses.ts";
import { Evidence } from "./lifecycle-evidence.ts";
import { createFixturePod, isFixture, type FixturePod } from "./lifecycle-fixture-pod.ts";
import { getPod, isSuccess, jsonObject, patchPod, podAction, routeMissing, terminatePod } from "./lifecycle-pods.ts";
import { settle } from "./lifecycle-run.ts";
import { readTargetCatalog } from "./lifecycle-target.ts";
import { waitForStatus } from "./lifecycle-wait.ts";

async function lockedPodRefuses(ctx: CheckContext, pod: FixturePod, evidence: Evidence): Promise<CheckOutcome> {
  const running = await waitForStatus(ctx, pod.id, ["RUNNING"]);
  const lock = await patchPod(ctx, pod.id, { locked: true });
  if (routeMissing(lock.status)) return ctx.skip(`the pod cannot be locked: PATCH /v2/pods/{id} (docs/choices.md) answered ${lock.status}`);
  if (!isSuccess(lock.status)) return ctx.skip(`the target refused PATCH {"locked": true} with ${lock.status}, so no locked pod could be had`);
  const locked = await getPod(ctx, pod.id);
  if (jsonObject(locked)?.locked !== true) return ctx.skip(`after PATCH {"locked": true} the pod does not read locked: true, so the lock could not be set`);

  // restart is only tried on a RUNNING pod: elsewhere a refusal could be the status's, not the lock's.
  const actions = running ? (["stop", "restart"] as const) : (["stop"] as const);
  const unclear: string[] = [];
  for (const action of actions) {
    const beforePod = jsonObject(await getPod(ctx, pod.id));
    const before = beforePod?.status;
    const res = await podAction(ctx, pod.id, action);
    if (isSuccess(res.status) && ctx.options.profile === "lenient") {
      const after = await getPod(ctx, pod.id);
      const a = jsonObject(after);
      if (a?.status === before && a?.startedAt === beforePod?.startedAt && a?.locked === true) continue;
      return ctx.fail(evidence.failure(`a locked pod cannot be ${action === "stop" ? "stopped" : "restarted"}: ${action} is refused (a 4xx) or visibly not applied (the pod as before: status ${String(before)}, startedAt ${String(beforePod?.startedAt)}); after a 2xx it reads status ${String(a?.status)}, startedAt ${String(a?.startedAt)}`, after.exchange));
    }
    if (isSuccess(res.status)) {
      return ctx.fail(evidence.failure(`a locked pod cannot be ${action === "stop" ? "stopped" : "restarted"} ("locked: when true the pod cannot be stopped or reset"), so ${action} is refused with a 4xx; got ${res.status}`, res.exchange));
    }
    if (routeMissing(res.status)) {
      unclear.push(action);
      continue;
    }
    if (!accepts(ctx, res.status)) {
      return ctx.fail(evidence.failure(`${action} of a locked pod is refused with ${acceptedText(ctx)}; got ${res.status}`, res.exchange));
    }
    const after = await getPod(ctx, pod.id);
    const status = jsonObject(after)?.status;
    if ((action === "stop" && status === "EXITED" && before !== "EXITED") || (action === "restart" && status === "STARTING" && before === "RUNNING")) {
      return ctx.fail(evidence.failure(`a locked pod is not ${action === "stop" ? "stopped" : "reset"} ("when true the pod cannot be stopped or reset"); after a refused ${action} it reads ${status}`, after.exchange));
    }
  }
  if (unclear.length === 0) return ctx.pass();

  // 404/405 to the action: a refusal, or no action route at all? Unlocked, the pod tells.
  await patchPod(ctx, pod.id, { locked: false });
  const probe = await podAction(ctx, pod.id, "stop");
  if (routeMissing(probe.status)) return ctx.skip(`the target has no POST /v2/pods/{id}/action (docs/choices.md; it answered ${probe.status}), so no stop could be tried`);
  return ctx.pass();
}

registerCheck(
  "pods.locked-no-stop",
  async (ctx) => {
    const target = await readTargetCatalog(ctx);
    const evidence = new Evidence(ctx);
    let pod = await createFixturePod(ctx, target, { kind: "gpu", mountKind: "none" });
    if (!isFixture(pod)) pod = await createFixturePod(ctx, target, { kind: "cpu", mountKind: "none" });
    if (!isFixture(pod)) return ctx.skip(pod.reason);
    evidence.capture("POD_ID", pod.created.exchange, pod.id);
    try {
      return await lockedPodRefuses(ctx, pod, evidence);
    } finally {
      await terminatePod(ctx, pod.id);
      await settle(ctx);
    }
  },
  { needs: { keys: ["api"] } },
);
