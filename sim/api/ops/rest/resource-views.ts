/**
 * The REST views of the catalog's per-account resources. Each copies what it hands out and
 * leaves out the owner's account id; a registry credential never carries a password.
 */
import type { Endpoint, NetworkVolume, Registry, Template } from "../../../catalog/index.ts";
import type { EndpointExtra } from "../../../domain/resources/index.ts";
import type { EndpointView, NetworkVolumeView, RegistryView, TemplateView } from "./resource-schemas.ts";

export function networkVolumeView(v: NetworkVolume): NetworkVolumeView {
  return { id: v.id, name: v.name, size: v.size, dataCenterId: v.dataCenterId };
}

export function templateView(t: Template): TemplateView {
  return {
    id: t.id,
    name: t.name,
    isPublic: t.isPublic,
    isServerless: t.isServerless,
    category: t.category,
    image: t.image,
    args: t.args,
    disk: t.disk,
    volumeInGb: t.volumeInGb,
    volumeMountPath: t.volumeMountPath,
    ports: [...t.ports],
    env: { ...t.env },
    registry: t.registry,
    readme: t.readme,
    mounts: t.volumeInGb > 0 ? { persistent: { size: t.volumeInGb, path: t.volumeMountPath } } : {},
  };
}

export function registryView(r: Registry): RegistryView {
  return { id: r.id, name: r.name, username: r.username };
}

/** `extra`: what a create or update recorded (catalog endpoints get catalogEndpointExtra's). */
export function endpointView(e: Endpoint, extra: EndpointExtra): EndpointView {
  const queueDelay = e.scalerType === "QueueDelay";
  return {
    id: e.id,
    name: e.name,
    shared: e.accountId === null,
    public: e.public,
    slug: e.slug,
    handler: e.handler,
    gpuTypeIds: [...e.gpuTypeIds],
    gpuCount: e.gpuCount,
    workersMin: e.workersMin,
    workersMax: e.workersMax,
    idleTimeoutMs: e.idleTimeoutMs,
    scalerType: e.scalerType,
    scalerValue: e.scalerValue,
    executionTimeoutMs: e.executionTimeoutMs,
    templateId: extra.templateId,
    type: extra.type,
    // A CPU endpoint's sizes (the client tells the compute family by a non-empty cpu); a GPU endpoint's GPUs.
    cpu: (e.cpu ?? []).map((c) => ({ id: c.flavorId, vcpuCount: c.vcpuCount })),
    gpu: e.cpu !== undefined && e.cpu.length > 0 ? null : { pools: extra.gpuIds.split(",").filter((p) => p !== ""), count: e.gpuCount },
    workers: { min: e.workersMin, max: e.workersMax, idleTimeout: Math.round(e.idleTimeoutMs / 1000) },
    scaling: queueDelay ? { type: "QUEUE_DELAY", queueDelay: e.scalerValue } : { type: "REQUEST_COUNT", requestCount: e.scalerValue },
    flashboot: extra.flashboot,
    networkVolumes: [...extra.networkVolumeIds],
    dataCenterIds: [...extra.dataCenterIds],
    createdAt: extra.createdAt,
    version: extra.version,
  };
}
