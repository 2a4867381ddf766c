/**
 * The one translation between the REST v1 pod surface and the spec's v2 pods: a v1 create body
 * (PodOptions, already valid against V1PodOptions) becomes v2 CreatePodRequest bodies, one per
 * GPU type or CPU flavor to try in order; a v2 Pod becomes the v1 pod of the platform's public
 * reference. Options the v2 body cannot carry are refused (400) naming each one, never dropped.
 *
 * Choices where the platform is silent (docs/resources.md): v1's defaults are kept
 * (name "my pod", 20 GB pod volume at /workspace on a GPU pod, ports 8888/http and 22/tcp, 2
 * vCPUs), except that a CPU pod gets no pod volume unless asked (v2 CPU pods have none) and a
 * template's ports win when the body names none; `networkVolumeId` replaces the pod volume (as v1
 * says); `dockerStartCmd` becomes v2 `args`, shell-quoted; a GPU pod needs `gpuTypeIds` and a CPU
 * pod `cpuFlavorIds` (no "any GPU" here); `desiredStatus` is RUNNING for every status but EXITED
 * and TERMINATED.
 */
import { parse, quote } from "shell-quote";
import type { Catalog } from "../../../catalog/index.ts";
import { problem } from "../../problem.ts";
import type { Pod } from "../../schemas/index.ts";
import type { ApiResponse } from "../../types.ts";
import type { V1Pod, V1PodOptions } from "./v1-pod-schemas.ts";

export type V1Translation =
  | { readonly ok: true; readonly candidates: ReadonlyArray<Record<string, unknown>>; readonly locked: boolean }
  | { readonly ok: false; readonly response: ApiResponse };

const nonEmpty = (v: readonly unknown[] | undefined): boolean => v !== undefined && v.length > 0;

/** Each option the v2 body cannot carry, with why; empty when all translate. */
function untranslatable(o: V1PodOptions): string[] {
  const out: string[] = [];
  if (nonEmpty(o.allowedCudaVersions)) out.push("allowedCudaVersions: the v2 pod body has no CUDA filter; leave it out (GraphQL's podFindAndDeployOnDemand takes allowedCudaVersions)");
  if (nonEmpty(o.countryCodes)) out.push("countryCodes: the v2 pod body places by data center, not country; send dataCenterIds instead");
  if (nonEmpty(o.dockerEntrypoint)) out.push("dockerEntrypoint: the v2 pod body has no entrypoint, only args; send dockerStartCmd, or leave it out");
  if (o.interruptible === true) out.push("interruptible: the emulator has no interruptible (spot) pods; send false or leave it out");
  for (const k of ["minDiskBandwidthMBps", "minDownloadMbps", "minRAMPerGPU", "minUploadMbps", "minVCPUPerGPU"] as const) {
    if (o[k] !== undefined) out.push(`${k}: the v2 pod body has no such placement filter; leave it out`);
  }
  const cpu = o.computeType === "CPU";
  if (!cpu && !nonEmpty(o.gpuTypeIds)) out.push("gpuTypeIds: a GPU pod needs at least one GPU type here; list them with GET /v2/catalog/gpus (or send computeType CPU)");
  if (cpu && !nonEmpty(o.cpuFlavorIds)) out.push("cpuFlavorIds: a CPU pod needs at least one CPU flavor here; list them with GET /v2/catalog/cpus");
  return out;
}

/** v1 PodOptions → the v2 bodies to try in order (one per GPU type or CPU flavor), or the 400 naming what cannot be sent. */
export function v1CreateBodies(o: V1PodOptions): V1Translation {
  const refused = untranslatable(o);
  if (refused.length > 0) {
    const names = refused.map((r) => r.slice(0, r.indexOf(":")));
    return { ok: false, response: problem(400, `These pod options cannot be translated onto the emulator's pods: ${names.join(", ")}; each is explained in errors.`, { errors: refused.map((r) => `/${r}`) }) };
  }
  const cpu = o.computeType === "CPU";
  const template = o.templateId !== undefined && o.templateId !== null;
  const path = o.volumeMountPath ?? "/workspace";
  const volume = o.volumeInGb ?? (cpu ? 0 : 20);
  const mounts = o.networkVolumeId !== undefined ? { network: [{ volumeId: o.networkVolumeId, path }] } : volume > 0 ? { persistent: { size: volume, path } } : undefined;
  const common: Record<string, unknown> = {
    name: o.name ?? "my pod",
    ...(o.imageName !== undefined ? { image: o.imageName } : {}),
    ...(template ? { templateId: o.templateId } : {}),
    ...(o.containerDiskInGb !== undefined && o.containerDiskInGb !== null ? { disk: o.containerDiskInGb } : {}),
    ...(o.ports !== undefined ? { ports: o.ports } : template ? {} : { ports: ["8888/http", "22/tcp"] }),
    ...(o.env !== undefined ? { env: o.env } : {}),
    ...(o.containerRegistryAuthId !== undefined ? { registry: o.containerRegistryAuthId } : {}),
    ...(o.cloudType !== undefined ? { cloud: o.cloudType } : {}),
    ...(o.dataCenterIds !== undefined ? { dataCenterIds: o.dataCenterIds } : {}),
    ...(o.globalNetworking !== undefined ? { globalNetworking: o.globalNetworking } : {}),
    ...(nonEmpty(o.dockerStartCmd) ? { args: quote(o.dockerStartCmd!) } : {}),
    ...(mounts !== undefined ? { mounts } : {}),
  };
  const candidates = cpu
    ? [...new Set(o.cpuFlavorIds)].map((id) => ({ ...common, cpu: { id, vcpuCount: o.vcpuCount ?? 2 } }))
    : [...new Set(o.gpuTypeIds)].map((id) => ({ ...common, gpu: { id, count: o.gpuCount ?? 1 } }));
  return { ok: true, candidates, locked: o.locked === true };
}

/** The v2 Pod in the v1 reference's shape; `accountId` is its owner (v1's consumerUserId). */
export function v1PodView(pod: Pod, catalog: Catalog, accountId: string): V1Pod {
  const persistent = pod.mounts.persistent;
  const network = pod.mounts.network?.[0];
  const ports = pod.runtime?.ports;
  const gpuType = pod.gpu ? catalog.gpuTypes.find((g) => g.id === pod.gpu!.id) : undefined;
  return {
    id: pod.id,
    name: pod.name,
    image: pod.image,
    desiredStatus: pod.status === "EXITED" || pod.status === "TERMINATED" ? pod.status : "RUNNING",
    consumerUserId: accountId,
    costPerHr: pod.cost,
    adjustedCostPerHr: pod.cost,
    gpuCount: pod.gpu?.count ?? 0,
    gpu: pod.gpu ? { id: pod.gpu.id, count: pod.gpu.count ?? 1, displayName: gpuType?.displayName ?? pod.gpu.id } : null,
    cpuFlavorId: pod.cpu?.id ?? null,
    vcpuCount: pod.cpu?.vcpuCount ?? null,
    memoryInGb: pod.cpu?.memory ?? null,
    containerDiskInGb: pod.disk,
    volumeInGb: persistent?.size ?? 0,
    volumeMountPath: persistent?.path ?? network?.path ?? null,
    networkVolumeId: network?.volumeId ?? null,
    ports: [...pod.ports],
    portMappings: ports ? Object.fromEntries(ports.filter((p) => p.public !== null).map((p) => [String(p.private), p.public!])) : null,
    publicIp: ports?.find((p) => p.ip !== null)?.ip ?? null,
    env: { ...pod.env },
    dockerEntrypoint: [],
    dockerStartCmd: pod.args === "" ? [] : parse(pod.args).filter((x): x is string => typeof x === "string"),
    interruptible: false,
    locked: pod.locked,
    templateId: pod.template,
    containerRegistryAuthId: pod.registry,
    machine: pod.dataCenterId === null ? null : { dataCenterId: pod.dataCenterId },
    lastStartedAt: pod.startedAt,
  };
}
