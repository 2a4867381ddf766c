/**
 * The GraphQL views of the account's resources, in the field names the official clients select:
 * templates as PodTemplate (imageName, dockerArgs, containerDiskInGb, ports as one string, env as
 * key/value pairs), endpoints with their pools, locations and idle timeout in seconds as sent.
 */
import type { NetworkVolume, Registry, Template } from "../../catalog/index.ts";
import type { Platform } from "../../domain/platform.ts";
import type { EndpointAnswer } from "../../domain/resources/index.ts";

export interface EnvPair {
  readonly key: string;
  readonly value: string;
}

const envPairs = (env: Readonly<Record<string, string>>): EnvPair[] => Object.entries(env).map(([key, value]) => ({ key, value }));

export function networkVolumeObject(v: NetworkVolume) {
  return { id: v.id, name: v.name, size: v.size, dataCenterId: v.dataCenterId };
}

export function templateObject(t: Template) {
  return {
    id: t.id,
    name: t.name,
    imageName: t.image,
    dockerArgs: t.args,
    containerDiskInGb: t.disk,
    volumeInGb: t.volumeInGb,
    volumeMountPath: t.volumeMountPath,
    ports: t.ports.join(","),
    env: envPairs(t.env),
    isServerless: t.isServerless,
    isPublic: t.isPublic,
    readme: t.readme,
    category: t.category,
    containerRegistryAuthId: t.registry,
  };
}

export function registryObject(r: Registry) {
  return { id: r.id, name: r.name, username: r.username };
}

export function endpointObject(platform: Platform, a: EndpointAnswer) {
  const { endpoint: e, extra } = a;
  const template = extra.templateId === null ? undefined : platform.resources.get("templates", extra.templateId);
  const volumeId = extra.networkVolumeIds[0] ?? null;
  const volume = volumeId === null ? undefined : platform.resources.get("networkVolumes", volumeId);
  return {
    id: e.id,
    name: e.name,
    templateId: extra.templateId,
    template: template ? templateObject(template) : null,
    gpuIds: extra.gpuIds,
    gpuCount: e.gpuCount,
    networkVolumeId: volumeId,
    networkVolume: volume ? { id: volume.id, name: volume.name, size: volume.size, dataCenterId: volume.dataCenterId } : null,
    locations: extra.dataCenterIds.join(","),
    idleTimeout: Math.round(e.idleTimeoutMs / 1000),
    scalerType: e.scalerType === "QueueDelay" ? "QUEUE_DELAY" : "REQUEST_COUNT",
    scalerValue: e.scalerValue,
    workersMin: e.workersMin,
    workersMax: e.workersMax,
    workersStandby: 0,
    executionTimeoutMs: e.executionTimeoutMs,
    flashBootType: extra.flashboot,
    allowedCudaVersions: (extra.allowedCudaVersions ?? []).join(","),
    aiKey: null,
    type: extra.type === "LOAD_BALANCER" ? "LB" : "QB",
    // A CPU endpoint's instance ids as the platform writes them (cpu3c-2-4); null for a GPU endpoint.
    instanceIds: e.cpu === undefined ? null : e.cpu.map((c) => `${c.flavorId}-${c.vcpuCount}-${c.memoryInGb}`),
    userId: e.accountId,
    version: extra.version,
    env: envPairs(template?.env ?? {}),
    createdAt: extra.createdAt,
    modelReferences: () => platform.resources.apps.modelReferencesOf(e.id),
  };
}
