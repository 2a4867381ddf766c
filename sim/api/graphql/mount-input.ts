/**
 * Storage of a deployed pod, from the GraphQL input to createPod's `mounts`:
 * `networkVolumeId` → a network mount at volumeMountPath; else `volumeInGb` > 0 → a persistent
 * pod volume of that size at volumeMountPath; else no mount. With both, the network volume wins
 * and volumeInGb is ignored: the official Python client sends its volume size default beside a
 * network volume, and a network volume is the pod's volume on the real platform.
 */
import type { Catalog } from "../../catalog/index.ts";
import type { MountsInput } from "../../domain/pods/index.ts";
import type { ContainerFields } from "./container-input.ts";
import type { InputProblems } from "./input-problems.ts";

/** "persistent mount size: at least 10 GB" (the spec's Limits). */
export const MIN_POD_VOLUME_GB = 10;

export function mountsOf(
  fields: ContainerFields,
  input: { readonly networkVolumeId?: string | null; readonly dataCenterId?: string | null },
  kind: "gpu" | "cpu",
  catalog: Catalog,
  accountId: string,
  problems: InputProblems,
): MountsInput | undefined {
  const volumeId = input.networkVolumeId;
  if (volumeId) {
    const volume = catalog.networkVolumes.find((v) => v.id === volumeId && v.accountId === accountId);
    if (!volume) {
      problems.add("networkVolumeId", `networkVolumeId ${JSON.stringify(volumeId)} is not one of your network volumes; send the id of a volume of your account, or leave it out.`);
    } else if (input.dataCenterId && input.dataCenterId !== volume.dataCenterId) {
      problems.add(
        "dataCenterId",
        `The network volume ${JSON.stringify(volumeId)} is in ${volume.dataCenterId}, but dataCenterId is ${JSON.stringify(input.dataCenterId)}; send dataCenterId: ${JSON.stringify(volume.dataCenterId)} or null.`,
      );
    }
    return { network: [{ volumeId, path: fields.volumeMountPath }] };
  }
  if (fields.volumeInGb <= 0) return undefined;
  if (kind === "cpu") {
    problems.add("volumeInGb", "volumeInGb (a pod volume on the host) is not available on CPU pods; send networkVolumeId for storage that outlives the pod, or 0.");
    return undefined;
  }
  if (fields.volumeInGb < MIN_POD_VOLUME_GB) {
    problems.add("volumeInGb", `volumeInGb is ${fields.volumeInGb}; a pod volume is at least ${MIN_POD_VOLUME_GB} GB. Send 0 for none, or ${MIN_POD_VOLUME_GB} or more.`);
    return undefined;
  }
  return { persistent: { size: fields.volumeInGb, path: fields.volumeMountPath } };
}
