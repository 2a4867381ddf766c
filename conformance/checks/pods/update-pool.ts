/**
 * The pods a PATCH check sends its bodies to, one per (kind, mount kind) that a case asks for,
 * created on first need and terminated when the check ends. The mount update rules depend on
 * the pod (its mount kind is fixed at create, its network volume immutable), so each generated
 * case names the pod it is meant for and the pool finds or makes a real one like it.
 */
import type { UpdatePodTarget } from "../../../sim/api/validate/index.ts";
import type { CheckContext } from "../../check.ts";
import { createFixturePod, isFixture, type FixturePod } from "./lifecycle-fixture-pod.ts";
import { patchPod, routeMissing, terminatePod } from "./lifecycle-pods.ts";
import type { TargetCatalog } from "./lifecycle-target.ts";

const keyOf = (t: UpdatePodTarget) => `${t.kind}/${t.mountKind}`;

export class UpdatePool {
  private readonly pods = new Map<string, FixturePod | { reason: string }>();

  constructor(
    private readonly ctx: CheckContext,
    readonly target: TargetCatalog,
  ) {}

  /** A pod of the case's kind and mount kind, or undefined when the target could not give one. */
  async get(t: UpdatePodTarget): Promise<FixturePod | undefined> {
    const key = keyOf(t);
    let pod = this.pods.get(key);
    if (pod === undefined) {
      pod = await createFixturePod(this.ctx, this.target, { kind: t.kind, mountKind: t.mountKind });
      this.pods.set(key, pod);
    }
    return isFixture(pod) ? pod : undefined;
  }

  /** Why some cases found no pod, for a skip. */
  reasons(): string[] {
    return [...new Set([...this.pods.values()].flatMap((p) => ("reason" in p ? [p.reason] : [])))];
  }

  /**
   * Whether the target has PATCH /v2/pods/{id} (choices.md), asked with a change that changes
   * nothing (the pod's own name): 404 or 405 on a pod that exists says it has not.
   */
  async patchMissing(pod: FixturePod): Promise<number | undefined> {
    const res = await patchPod(this.ctx, pod.id, { name: pod.body.name });
    return routeMissing(res.status) ? res.status : undefined;
  }

  /** Another of the account's network volumes than `volumeId`, or a made-up id when it has no other. */
  otherVolume(volumeId: string | undefined): string {
    const other = (this.target.volumes ?? []).find((v) => v.id !== volumeId);
    return other?.id ?? `${volumeId ?? "cpsim-volume"}-other`;
  }

  async cleanup(): Promise<void> {
    for (const pod of this.pods.values()) if (isFixture(pod)) await terminatePod(this.ctx, pod.id);
  }
}
