/**
 * The five mount update rules of the spec (PATCH of a pod), applied to a pod's mounts. sim/api
 * validates first and answers 400/422; these checks repeat the rules so the registry can never
 * be left holding a mount the rules forbid.
 *   1. Omitting `mounts` or sending an empty object leaves the mount unchanged.
 *   2. An explicit empty `network` array is rejected.
 *   3. The mount kind is fixed at create (no persistent on a network pod, no network on a
 *      persistent pod, no mount at all on a pod created without one).
 *   4. A different `volumeId` on a network mount is rejected.
 *   5. Partial entries are rejected: persistent needs size and path, network volumeId and path.
 * What may change: the persistent mount's size and path, the network mount's path.
 */
import type { MountsInput } from "./pod-input.ts";
import type { PodMounts } from "./pod-record.ts";

/** Why the update breaks a rule, or undefined when it may be applied. */
export function checkMountUpdate(current: PodMounts, patch: MountsInput | undefined): string | undefined {
  if (patch === undefined || (patch.persistent === undefined && patch.network === undefined)) return undefined;
  if (patch.persistent !== undefined && patch.network !== undefined) return "at most one of mounts.persistent and mounts.network may be set";
  if (patch.network !== undefined) {
    if (patch.network.length === 0) return "mounts.network must not be an empty array";
    if (patch.network.length > 1) return "mounts.network holds at most one entry";
    const entry = patch.network[0]!;
    if (typeof entry.volumeId !== "string" || typeof entry.path !== "string") return "a network mount entry needs volumeId and path";
    if (!current.network) return "the mount kind is fixed at create: this pod has no network mount";
    if (entry.volumeId !== current.network[0]!.volumeId) return "the volumeId of a network mount cannot change";
    return undefined;
  }
  const entry = patch.persistent!;
  if (typeof entry.size !== "number" || typeof entry.path !== "string") return "a persistent mount entry needs size and path";
  if (!current.persistent) return "the mount kind is fixed at create: this pod has no persistent mount";
  return undefined;
}

/** The mounts after an update that passed checkMountUpdate; the same object when nothing changes. */
export function applyMountUpdate(current: PodMounts, patch: MountsInput | undefined): PodMounts {
  if (patch?.persistent && current.persistent) {
    const { size, path } = patch.persistent;
    return size === current.persistent.size && path === current.persistent.path ? current : { persistent: { size, path } };
  }
  if (patch?.network && current.network) {
    const { volumeId, path } = patch.network[0]!;
    return path === current.network[0]!.path ? current : { network: [{ volumeId, path }] };
  }
  return current;
}
