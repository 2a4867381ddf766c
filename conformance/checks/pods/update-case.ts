/**
 * Turning sim/api/validate's PATCH cases (updatePodCaseArb, breakUpdateRule) into requests for a
 * real target. The generated bodies name the fixture catalog's volumes; here they name the pool
 * pod's own volume, or another of the account's. And the valid part of a body keeps only fields
 * no correct target could refuse for reasons of its own (a registry credential id it does not
 * know, global networking where its data center has none, a lock, a smaller disk, a resized
 * persistent mount), and of those only values the target is not known to refuse (the run's
 * value store: a port protocol it refused in an earlier PATCH is not sent again), so a refusal is
 * the broken rule's and its status is that rule's.
 */
import type { UpdateCase, UpdatePodTarget } from "../../../sim/api/validate/index.ts";
import type { ValueStore } from "../../values/value-store.ts";
import type { FixturePod } from "./lifecycle-fixture-pod.ts";
import type { UpdatePool } from "./update-pool.ts";

const SAFE_FIELDS = ["name", "image", "args", "ports", "env"] as const;

/** The case with only fields that are valid on any pod of any target, and mounts only as `{}`. */
export function safeCase(c: UpdateCase, values?: ValueStore): UpdateCase {
  const src = c.body as Record<string, unknown>;
  const body: Record<string, unknown> = {};
  for (const key of SAFE_FIELDS) if (src[key] !== undefined) body[key] = src[key];
  const mounts = src.mounts as Record<string, unknown> | undefined;
  if (mounts !== undefined && Object.keys(mounts).length === 0) body.mounts = {};
  return { pod: c.pod, body: (values ? values.fit("updatePod", body) : body) as UpdateCase["body"] };
}

/**
 * The body with the case's volume ids replaced: the case pod's volume becomes the real pod's,
 * any other becomes another of the account's volumes (so "a different volumeId" is different).
 */
export function withTargetVolumes(body: unknown, casePod: UpdatePodTarget, pod: FixturePod, pool: UpdatePool): unknown {
  const copy = JSON.parse(JSON.stringify(body ?? null)) as any;
  const network = copy?.mounts?.network;
  if (!Array.isArray(network)) return copy;
  for (const entry of network) {
    if (entry === null || typeof entry !== "object" || typeof entry.volumeId !== "string") continue;
    entry.volumeId = entry.volumeId === casePod.volumeId && pod.volumeId !== undefined ? pod.volumeId : pool.otherVolume(pod.volumeId);
  }
  return copy;
}

/** Mounts compared as data: key order does not matter. */
export function sameMounts(a: unknown, b: unknown): boolean {
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canon)
      : v !== null && typeof v === "object"
        ? Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, canon((v as Record<string, unknown>)[k])]))
        : v;
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}
