/**
 * Valid createPod bodies for the target: sim/api's generator over the target's own catalog,
 * then fitted so that a correct implementation has no reason to refuse them besides capacity.
 * Fitting removes what the spec allows but a target may legitimately refuse for reasons of its
 * own (a registry credential id that does not exist, the same port twice), fills the fields whose
 * values the spec leaves open only with values the target is not known to refuse (the run's value
 * store, learned from its answers: a port protocol or an image tag it refused), and steers GPU
 * type, cloud and count towards what the catalog says is in stock.
 */
import fc from "fast-check";
import type { CreatePodRequest } from "../../../sim/api/schemas/index.ts";
import { createPodBodyArb } from "../../../sim/api/validate/index.ts";
import type { ValueStore } from "../../values/value-store.ts";
import { gpusInStock, usableCatalog, type CloudName, type TargetCatalog, type TargetGpu } from "./create-target-catalog.ts";

export interface ValidBodyOptions {
  /** Only GPU pods, or only CPU pods. */
  readonly kind?: "gpu" | "cpu";
  /** Fields left out, so their defaults apply. */
  readonly omit?: readonly ("cloud" | "count" | "globalNetworking")[];
  /** The run's accepted and refused values (ctx.client.values): open fields get only values not known refused. */
  readonly values?: ValueStore;
}

type Draft = Record<string, any>;

/** Whether the catalog offers the type in the cloud, and the target has not refused the pairing. */
const offeredIn = (gpu: TargetGpu | undefined, cloud: CloudName, tc?: TargetCatalog): boolean =>
  gpu?.offers[cloud]?.inStock === true && !tc?.refused.gpuClouds.has(`${gpu.id}@${cloud}`);

/** The data centers a body confines the pod to, or undefined when it leaves the choice open. */
function candidateDcs(body: Draft, tc: TargetCatalog): string[] | undefined {
  const volumeId: unknown = body.mounts?.network?.[0]?.volumeId;
  const volumeDc = tc.volumes.find((v) => v.id === volumeId)?.dataCenterId;
  if (volumeDc !== undefined) return [volumeDc];
  return Array.isArray(body.dataCenterIds) && body.dataCenterIds.length > 0 ? body.dataCenterIds : undefined;
}

function fitGpu(body: Draft, tc: TargetCatalog, opts: ValidBodyOptions): void {
  const stocked = gpusInStock(tc);
  let gpu = tc.gpus.find((g) => g.id === body.gpu.id);
  const needsNvidia = body.globalNetworking === true;
  const fits = (g: TargetGpu): boolean => {
    if (needsNvidia && g.manufacturer.toLowerCase() !== "nvidia") return false;
    if (opts.omit?.includes("cloud") && !offeredIn(g, "SECURE", tc)) return false;
    if (!offeredIn(g, "SECURE", tc) && !offeredIn(g, "COMMUNITY", tc)) return false;
    if (opts.omit?.includes("count") && g.offers.SECURE?.counts && !g.offers.SECURE.counts.includes(1)) return false;
    const dcs = candidateDcs(body, tc);
    if (dcs === undefined) return true;
    // Only data centers whose catalog entry lists GPU stock can rule a type out.
    return dcs.some((id) => {
      const dc = tc.dataCenters.find((d) => d.id === id);
      return dc?.gpus === undefined || dc.gpus.has(g.id);
    });
  };
  if (gpu === undefined || !fits(gpu)) {
    const other = stocked.find(fits);
    if (other !== undefined) gpu = other;
  }
  if (gpu === undefined) return;
  body.gpu = { ...body.gpu, id: gpu.id };
  // The cloud the body names must offer the type; the default (SECURE) too when none is named.
  const cloud: CloudName = body.cloud ?? "SECURE";
  if (!offeredIn(gpu, cloud, tc)) {
    const other: CloudName = cloud === "SECURE" ? "COMMUNITY" : "SECURE";
    if (offeredIn(gpu, other, tc) && !opts.omit?.includes("cloud")) body.cloud = other;
  }
  // Global networking on community hardware is a question the spec leaves open: ask only in SECURE.
  if (body.globalNetworking === true && body.cloud === "COMMUNITY") {
    if (offeredIn(gpu, "SECURE", tc)) delete body.cloud;
    else body.globalNetworking = false;
  }
  // A body is valid for a target only within what its own catalog offers: where the catalog
  // states the counts it could give, one of those; where it states none, the spec's default (1).
  const counts = gpu.offers[(body.cloud ?? "SECURE") as CloudName]?.counts;
  if (counts && counts.length > 0) {
    const wanted: number = body.gpu.count ?? 1;
    if (!counts.includes(wanted)) {
      const below = counts.filter((n) => n <= wanted);
      body.gpu.count = below.length > 0 ? Math.max(...below) : Math.min(...counts);
    }
  } else if (body.gpu.count !== undefined) {
    body.gpu.count = 1;
  }
}

/** The body, fitted to the target (see the file's comment). */
export function fitBody(input: CreatePodRequest, tc: TargetCatalog, opts: ValidBodyOptions = {}): CreatePodRequest {
  const body = (opts.values ? opts.values.fit("createPod", input) : JSON.parse(JSON.stringify(input))) as Draft;
  if (typeof body.registry === "string") delete body.registry;
  if (Array.isArray(body.ports)) {
    const seen = new Set<string>();
    body.ports = (body.ports as string[])
      .filter((p) => {
        const port = p.split("/")[0]!;
        if (seen.has(port)) return false;
        seen.add(port);
        return true;
      });
  }
  for (const field of opts.omit ?? []) {
    if (field === "count") {
      if (body.gpu) delete body.gpu.count;
    } else delete body[field];
  }
  if (body.gpu) fitGpu(body, tc, opts);
  // CPU pods are a secure-cloud product on the platform the spec describes.
  if (body.cpu && body.cloud === "COMMUNITY") delete body.cloud;
  if (opts.omit?.includes("count") && body.gpu) delete body.gpu.count;
  return body as CreatePodRequest;
}

/** Valid createPod bodies for the target; undefined when its catalog offers nothing to create. */
export function validBodyArb(tc: TargetCatalog, opts: ValidBodyOptions = {}): fc.Arbitrary<CreatePodRequest> | undefined {
  const catalog = usableCatalog(tc);
  const gpuOk = catalog.gpuTypes.length > 0 && opts.kind !== "cpu";
  const cpuOk = catalog.cpuFlavors.some((f) => f.vcpuCounts.length > 0) && opts.kind !== "gpu";
  if (!gpuOk && !cpuOk) return undefined;
  const narrowed = { ...catalog, gpuTypes: gpuOk ? catalog.gpuTypes : [], cpuFlavors: cpuOk ? catalog.cpuFlavors : [] };
  return createPodBodyArb(narrowed).map((b) => fitBody(b, tc, opts));
}

/** Why validBodyArb gave nothing, for a skip. */
export function noBodyReason(tc: TargetCatalog, opts: ValidBodyOptions = {}): string {
  const what = opts.kind === "gpu" ? "GPU type" : opts.kind === "cpu" ? "CPU flavor with known vCPU counts" : "GPU type or CPU flavor";
  return `the target's catalog offers no ${what} to build a valid createPod body from (${tc.notes.join("; ")})`;
}

/**
 * The body most likely to be accepted: one GPU of the best-stocked type, or the smallest CPU
 * pod, nothing else. A refusal of this one for capacity means the target cannot be tested now.
 */
export function safestBody(tc: TargetCatalog, kind?: "gpu" | "cpu", values?: ValueStore): CreatePodRequest | undefined {
  const base = { name: "cpsim-conformance", image: "ubuntu:22.04" };
  if (kind !== "cpu") {
    const stocked = gpusInStock(tc).filter((g) => g.offers.SECURE?.inStock !== false);
    const best = stocked.find((g) => g.offers.SECURE?.counts?.includes(1)) ?? stocked[0];
    if (best !== undefined) return fitBody({ ...base, gpu: { id: best.id } } as CreatePodRequest, tc, values ? { values } : {});
  }
  if (kind !== "gpu") {
    const flavor = usableCatalog(tc).cpuFlavors.find((f) => f.vcpuCounts.length > 0);
    if (flavor !== undefined) return (values ? values.fit("createPod", { ...base, cpu: { id: flavor.id, vcpuCount: Math.min(...flavor.vcpuCounts) } }) : { ...base, cpu: { id: flavor.id, vcpuCount: Math.min(...flavor.vcpuCounts) } }) as CreatePodRequest;
  }
  return undefined;
}
