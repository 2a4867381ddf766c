/**
 * One pod of a given kind for a directed check (a locked pod, a pod to PATCH, a pod to send
 * broken action bodies to): a GPU or CPU pod without mounts, with a persistent mount, or with a
 * network mount of one of the account's volumes. It tries the target's best-stocked types in
 * turn, since a refused create (no capacity) is the target's right; when none is placed the
 * check is skipped with the reason.
 */
import type { CheckContext } from "../../check.ts";
import type { ClientResponse } from "../../client.ts";
import { createdPodId } from "./create-pod-client.ts";
import { createPod, getPod, isSuccess, jsonObject } from "./lifecycle-pods.ts";
import type { TargetCatalog } from "./lifecycle-target.ts";

export type MountKind = "none" | "persistent" | "network";

export interface FixtureSpec {
  readonly kind: "gpu" | "cpu";
  readonly mountKind: MountKind;
  /** Extra createPod fields (gpu count, data centers ...). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

export interface FixturePod {
  readonly id: string;
  readonly body: Record<string, unknown>;
  /** The create exchange: the first request of a reproduction. */
  readonly created: ClientResponse;
  readonly view: Record<string, unknown>;
  /** The network volume it mounts. */
  readonly volumeId?: string;
}

export const FIXTURE_MOUNT_PATH = "/workspace";
/** How many candidate types or volumes are tried before giving up. */
const MAX_TRIES = 3;

function bodies(target: TargetCatalog, spec: FixtureSpec): Array<{ body: Record<string, unknown>; volumeId?: string }> {
  const { catalog } = target;
  const base = { name: "cpsim-conformance", image: "ubuntu:22.04", ...spec.extra };
  const computes: Record<string, unknown>[] =
    spec.kind === "gpu"
      ? catalog.gpuTypes.map((g) => ({ gpu: { id: g.id } }))
      : catalog.cpuFlavors.map((f) => ({ cpu: { id: f.id, vcpuCount: f.vcpuCounts[0] } }));
  if (spec.mountKind === "network") {
    const volumes = target.volumes ?? [];
    // Each volume with each compute: the pod must be placed in the volume's data center.
    return volumes.flatMap((v) =>
      computes.map((c) => ({ body: { ...base, ...c, mounts: { network: [{ volumeId: v.id, path: FIXTURE_MOUNT_PATH }] } }, volumeId: v.id })),
    );
  }
  const mounts = spec.mountKind === "persistent" ? { mounts: { persistent: { size: 20, path: FIXTURE_MOUNT_PATH } } } : {};
  return computes.map((c) => ({ body: { ...base, ...c, ...mounts } }));
}

/** A created pod, or why none could be had. */
export async function createFixturePod(ctx: CheckContext, target: TargetCatalog, spec: FixtureSpec): Promise<FixturePod | { reason: string }> {
  const candidates = bodies(target, spec);
  if (candidates.length === 0) {
    const what = spec.mountKind === "network" ? "network volume" : spec.kind === "gpu" ? "GPU type" : "CPU flavor";
    return { reason: `the target offers no ${what} to create a ${spec.kind.toUpperCase()} pod with${target.notes.length ? ` (${target.notes.join("; ")})` : ""}` };
  }
  let last: ClientResponse | undefined;
  for (const { body, volumeId } of candidates.slice(0, MAX_TRIES)) {
    const res = await createPod(ctx, body);
    // The body's id, else the one its Location header names; a body without the id (which the
    // spec requires there: pods.create.response-required-fields judges it) gives way to a read.
    const id = createdPodId(res);
    if (isSuccess(res.status) && id !== undefined) {
      let view = jsonObject(res);
      if (view?.["id"] !== id) {
        const read = await getPod(ctx, id);
        view = read.status === 200 ? jsonObject(read) : undefined;
      }
      if (view !== undefined) return { id, body, created: res, view, ...(volumeId ? { volumeId } : {}) };
    }
    last = res;
  }
  return { reason: `no ${spec.kind.toUpperCase()} pod${spec.mountKind === "none" ? "" : ` with a ${spec.mountKind} mount`} could be created (last answer ${last?.status})` };
}

export const isFixture = (x: FixturePod | { reason: string }): x is FixturePod => "id" in x;
