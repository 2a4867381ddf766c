/**
 * The pods a PATCH check sends its bodies to, one per (kind, mount kind) that a case asks for,
 * created on first need and terminated when the check ends. The mount update rules depend on
 * the pod (its mount kind is fixed at create, its network volume immutable), so each generated
 * case names the pod it is meant for and the pool finds or makes a real one like it.
 */
import fc from "fast-check";
import type { UpdatePodTarget } from "../../../sim/api/validate/index.ts";
import type { CheckContext } from "../../check.ts";
import { createFixturePod, isFixture, type FixturePod } from "./lifecycle-fixture-pod.ts";
import { patchPod, routeMissing, terminatePod } from "./lifecycle-pods.ts";
import type { TargetCatalog } from "./lifecycle-target.ts";

const keyOf = (t: UpdatePodTarget) => `${t.kind}/${t.mountKind}`;
/** Cases drawn to see whether a rule has any the target can serve. */
const FEASIBILITY_SAMPLE = 200;

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

  /**
   * Whether the target can give a pod like `t` at all: a GPU type or CPU flavor to create it with,
   * and for a network mount a volume it lists (or a profile names); a kind whose create was
   * already refused is avoided while another kind remains.
   */
  possible(t: UpdatePodTarget): boolean {
    const { catalog, volumes } = this.target;
    if (t.kind === "gpu" ? catalog.gpuTypes.length === 0 : catalog.cpuFlavors.length === 0) return false;
    if (t.mountKind === "network" && (volumes ?? []).length === 0) return false;
    const had = this.pods.get(keyOf(t));
    if (had === undefined || !("reason" in had)) return true;
    // Refused before: still drawn when every kind was refused, so the rule's skip says why.
    return [...this.pods.values()].every((p) => "reason" in p);
  }

  /**
   * The cases of `arb` whose pod the target can give, so a rule that needs a pod with a network
   * mount falls back to the other kinds where the rule allows, and no rule's judgement depends on
   * which kinds the seed drew; or, when no case of the rule can be served, why.
   */
  feasible<T extends { readonly pod: UpdatePodTarget }>(arb: fc.Arbitrary<T>, seed: number): { arb: fc.Arbitrary<T> } | { reason: string } {
    const sample = fc.sample(arb, { seed, numRuns: FEASIBILITY_SAMPLE });
    if (sample.some((c) => this.possible(c.pod))) return { arb: arb.filter((c) => this.possible(c.pod)) };
    const kinds = [...new Set(sample.map((c) => `${c.pod.kind.toUpperCase()} pod${c.pod.mountKind === "none" ? "" : ` with a ${c.pod.mountKind} mount`}`))];
    return { reason: `every case of this rule needs a ${kinds.join(" or a ")}, which the target cannot give (${this.target.notes.join("; ") || "its catalog offers none"})` };
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
