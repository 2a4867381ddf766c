/**
 * The newest official Python client's storage and placement fields of a deployed pod, folded into
 * the older ones the deploy mutations already read: `volumeMounts: [{volumeId, volumeType,
 * mountPath}]` (runpod/apps/volume.py's attach_pod_mounts) and `dataCenterIds`. A NETWORK_VOLUME
 * mount becomes `networkVolumeId` at its `mountPath` (at most one, as before); an
 * OBJECT_STORE_VOLUME mount must name one of the caller's global volumes and is then accepted
 * without a place in the model (its pods have no object-store mounts: docs/resources.md, choices).
 * `dataCenterIds` is a preference list (tasks.py sends all of the platform's data centers by
 * default): `dataCenterId` first, then those ids less the platform's that the catalog does not
 * hold (platform-places.ts); `dataCenterId` stays the first.
 */
import type { Catalog } from "../../catalog/index.ts";
import { dataCentersInCatalog } from "../../domain/resources/index.ts";
import type { ContainerInput } from "./input-types.ts";
import type { InputProblems } from "./input-problems.ts";
import type { ResolverContext } from "./resolver-context.ts";

/** The ids of the caller's global volumes (what an OBJECT_STORE_VOLUME may name). */
export function globalVolumeIds(ctx: ResolverContext): ReadonlySet<string> {
  return new Set(ctx.platform.resources.globalVolumes.of(ctx.principal.accountId).map((v) => v.id));
}

const absolute = (path: string) => path.startsWith("/") && !path.startsWith("//") && !path.split("/").includes("..");

export function foldVolumeMounts<T extends ContainerInput>(input: T, globalVolumeIds: ReadonlySet<string>, catalog: Catalog, problems: InputProblems): T & { readonly dataCenterIds?: string[] } {
  const mounts = (input.volumeMounts ?? []).filter((m) => m !== null);
  if (mounts.length === 0 && (input.dataCenterIds === undefined || input.dataCenterIds === null)) return { ...input, dataCenterIds: undefined };
  const listed = dataCentersInCatalog((input.dataCenterIds ?? []).filter((d): d is string => typeof d === "string" && d !== ""), catalog);
  if (!listed.ok) problems.add("dataCenterIds", `dataCenterIds: ${listed.message}.`);
  const places = [...new Set([input.dataCenterId, ...(listed.ok ? listed.ids : [])].filter((d): d is string => typeof d === "string" && d !== ""))];
  mounts.forEach((m, i) => {
    if (!absolute(m!.mountPath)) problems.add(`volumeMounts[${i}].mountPath`, `volumeMounts[${i}].mountPath ${JSON.stringify(m!.mountPath)} must be an absolute path without "..".`);
    if (m!.volumeType === "OBJECT_STORE_VOLUME" && !globalVolumeIds.has(m!.volumeId)) {
      problems.add(`volumeMounts[${i}].volumeId`, `volumeMounts[${i}].volumeId ${JSON.stringify(m!.volumeId)} is not one of your global volumes; list them with myself { globalStoreBuckets { id name } }.`);
    }
  });
  const network = mounts.filter((m) => m!.volumeType === "NETWORK_VOLUME");
  if (network.length > 1) problems.add("volumeMounts", "volumeMounts holds more than one NETWORK_VOLUME; a pod mounts one network volume.");
  const net = network[0];
  if (net && input.networkVolumeId && input.networkVolumeId !== net.volumeId) {
    problems.add("networkVolumeId", `networkVolumeId ${JSON.stringify(input.networkVolumeId)} and the NETWORK_VOLUME mount ${JSON.stringify(net.volumeId)} disagree; send one of them.`);
  }
  return {
    ...input,
    ...(net ? { networkVolumeId: net.volumeId, volumeMountPath: net.mountPath } : {}),
    dataCenterId: places[0] ?? null,
    dataCenterIds: places,
  };
}
