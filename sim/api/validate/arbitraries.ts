/**
 * fast-check generators of valid request bodies, and (re-exported from the *-breakers.ts files) the
 * functions that turn a valid body into one that breaks exactly one rule. Tests use them to show
 * that each request rule is enforced; the conformance suite reuses them to send the same
 * requests to any target. Every generated body is plain JSON (it went through JSON.stringify).
 */
import fc from "fast-check";
import type { CreatePodRequest, JobSubmitRequest, PodAction, UpdatePodRequest } from "../schemas/index.ts";
import { EXECUTION_TIMEOUT_RANGE, JOB_TTL_RANGE, POD_ACTIONS } from "../schemas/index.ts";
import { isNvidia, sampleCatalog, type ArbitraryCatalog } from "./sample-catalog.ts";
import { isPowerOfTwo } from "./validate-create-pod.ts";
import type { UpdatePodTarget } from "./validate-update-pod.ts";
import { WAIT_RANGE } from "./validate-wait-query.ts";

export { catalogContext, sampleCatalog, type ArbitraryCatalog } from "./sample-catalog.ts";
export { breakRule, createPodBreakers, type CreateBreaker } from "./create-pod-breakers.ts";
export { breakUpdateRule, updatePodBreakers, type UpdateBreaker } from "./update-pod-breakers.ts";
export {
  breakJobSubmitRule, breakPodActionRule, breakTtlQueryRule, breakWaitQueryRule, jobSubmitBreakers, podActionBreakers,
  ttlQueryBreakers, waitQueryBreakers, type JobSubmitBreaker, type PodActionBreaker, type QueryBreaker,
} from "./request-breakers.ts";

/** A PATCH body together with the pod it is sent to (the mount rules depend on the pod). */
export interface UpdateCase {
  readonly pod: UpdatePodTarget;
  readonly body: UpdatePodRequest;
}

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });

export const nameArb = fc.string({ minLength: 1, maxLength: 24 });
export const imageArb = fc.constantFrom("runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04", "ubuntu:22.04", "vllm/vllm-openai:latest");
export const portArb = fc
  .tuple(fc.integer({ min: 1, max: 65_535 }), fc.constantFrom("http", "tcp", "udp"))
  .map(([port, protocol]) => `${port}/${protocol}`);
export const envArb = fc.dictionary(fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,11}$/), fc.string({ maxLength: 20 }), {
  maxKeys: 4,
  noNullPrototype: true,
});
export const mountPathArb = fc.constantFrom("/workspace", "/data", "/root/models", "/mnt/volume");
const registryArb = fc.option(fc.stringMatching(/^[a-z0-9]{6,12}$/), { nil: null });

function assign(target: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== undefined) target[key] = value;
}

/** Valid createPod bodies for `catalog`: GPU and CPU pods, every optional field sometimes. */
export function createPodBodyArb(catalog: ArbitraryCatalog = sampleCatalog): fc.Arbitrary<CreatePodRequest> {
  const flavors = catalog.cpuFlavors
    .map((f) => ({ id: f.id, counts: f.vcpuCounts.filter((n) => n >= 2 && isPowerOfTwo(n)) }))
    .filter((f) => f.id !== "" && f.counts.length > 0);
  const kinds = [...(catalog.gpuTypes.length > 0 ? ["gpu" as const] : []), ...(flavors.length > 0 ? ["cpu" as const] : [])];
  if (kinds.length === 0) throw new RangeError("The catalog has neither GPU types nor usable CPU flavors; no valid createPod body exists.");
  const dcIds = catalog.dataCenters.map((d) => d.id);
  const globalDc = new Set(catalog.dataCenters.filter((d) => d.globalNetwork).map((d) => d.id));
  return fc
    .record({
      name: nameArb,
      image: imageArb,
      kind: fc.constantFrom(...kinds),
      gpuIndex: fc.nat(),
      count: optional(fc.integer({ min: 1, max: 8 })),
      flavorIndex: fc.nat(),
      vcpuIndex: fc.nat(),
      mount: fc.constantFrom("absent", "empty", "persistent", "network"),
      size: fc.integer({ min: 10, max: 1000 }),
      path: mountPathArb,
      volumeIndex: fc.nat(),
      dcMode: fc.constantFrom("absent", "empty", "list"),
      dcPick: fc.subarray(dcIds),
      globalNetworking: optional(fc.boolean()),
      args: optional(fc.string({ maxLength: 30 })),
      disk: optional(fc.integer({ min: 1, max: 500 })),
      ports: optional(fc.array(portArb, { maxLength: 3 })),
      env: optional(envArb),
      // A valid body names one of the caller's registry credentials, or none: a made-up id is
      // refused (pods.create.unknown-registry), so without a known list it sends null (drawn
      // as before, so that seeded runs keep the sequences they had).
      registry: optional(
        catalog.registries === undefined || catalog.registries.length === 0
          ? registryArb.map(() => null)
          : fc.option(fc.constantFrom(...catalog.registries.map((r) => r.id)), { nil: null }),
      ),
      cloud: optional(fc.constantFrom("SECURE", "COMMUNITY")),
    })
    .map((d) => {
      const body: Record<string, unknown> = { name: d.name, image: d.image };
      for (const key of ["args", "disk", "ports", "env", "registry", "cloud"] as const) assign(body, key, d[key]);
      let nvidia = false;
      if (d.kind === "gpu") {
        const gpu = catalog.gpuTypes[d.gpuIndex % catalog.gpuTypes.length]!;
        nvidia = isNvidia(gpu);
        body.gpu = d.count === undefined ? { id: gpu.id } : { id: gpu.id, count: d.count };
      } else {
        const flavor = flavors[d.flavorIndex % flavors.length]!;
        body.cpu = { id: flavor.id, vcpuCount: flavor.counts[d.vcpuIndex % flavor.counts.length] };
      }
      // A persistent mount is for GPU pods only; a CPU pod drawing it gets a network mount.
      const mount = d.mount === "persistent" && d.kind === "cpu" ? "network" : d.mount;
      const volume = mount === "network" ? catalog.networkVolumes[d.volumeIndex % Math.max(1, catalog.networkVolumes.length)] : undefined;
      if (mount === "empty" || (mount === "network" && volume === undefined)) body.mounts = {};
      if (mount === "persistent") body.mounts = { persistent: { size: d.size, path: d.path } };
      if (volume !== undefined) body.mounts = { network: [{ volumeId: volume.id, path: d.path }] };
      // Named data centers must include the volume's.
      let dataCenterIds: string[] | undefined;
      if (d.dcMode === "empty") dataCenterIds = [];
      if (d.dcMode === "list" && d.dcPick.length > 0) {
        dataCenterIds = volume === undefined ? d.dcPick : [...new Set([volume.dataCenterId, ...d.dcPick])];
      }
      assign(body, "dataCenterIds", dataCenterIds);
      // Global networking only where it can be had: an NVIDIA GPU and an eligible data center.
      if (d.globalNetworking !== undefined) {
        let candidates = dataCenterIds !== undefined && dataCenterIds.length > 0 ? dataCenterIds : undefined;
        if (volume !== undefined) candidates = [volume.dataCenterId];
        const eligible = nvidia && (candidates === undefined || candidates.some((dc) => globalDc.has(dc)));
        body.globalNetworking = d.globalNetworking && eligible;
      }
      return json(body) as CreatePodRequest;
    });
}

/** Valid PATCH bodies, each with a pod it is valid for. */
export function updatePodCaseArb(): fc.Arbitrary<UpdateCase> {
  return fc
    .record({
      kind: fc.constantFrom("gpu" as const, "cpu" as const),
      mountKind: fc.constantFrom("none" as const, "persistent" as const, "network" as const),
      volumeId: fc.constantFrom("vol-eu-ro-1", "vol-us-ks-2"),
      mount: fc.constantFrom("absent", "empty", "same"),
      size: fc.integer({ min: 10, max: 1000 }),
      path: mountPathArb,
      name: optional(nameArb),
      image: optional(imageArb),
      args: optional(fc.string({ maxLength: 30 })),
      disk: optional(fc.integer({ min: 1, max: 500 })),
      ports: optional(fc.array(portArb, { maxLength: 3 })),
      env: optional(envArb),
      registry: optional(registryArb),
      locked: optional(fc.boolean()),
      globalNetworking: optional(fc.boolean()),
    })
    .map((d) => {
      const mountKind = d.kind === "cpu" && d.mountKind === "persistent" ? "none" : d.mountKind;
      const pod: UpdatePodTarget = mountKind === "network" ? { kind: d.kind, mountKind, volumeId: d.volumeId } : { kind: d.kind, mountKind };
      const body: Record<string, unknown> = {};
      for (const key of ["name", "image", "args", "disk", "ports", "env", "registry", "locked"] as const) assign(body, key, d[key]);
      if (d.globalNetworking !== undefined) body.globalNetworking = d.globalNetworking && d.kind === "gpu";
      if (d.mount === "empty" || (d.mount === "same" && mountKind === "none")) body.mounts = {};
      if (d.mount === "same" && mountKind === "persistent") body.mounts = { persistent: { size: d.size, path: d.path } };
      if (d.mount === "same" && mountKind === "network") body.mounts = { network: [{ volumeId: d.volumeId, path: d.path }] };
      return { pod, body: json(body) as UpdatePodRequest };
    });
}

/** Valid pod action bodies. */
export function podActionBodyArb(): fc.Arbitrary<{ action: PodAction }> {
  return fc.constantFrom(...POD_ACTIONS).map((action) => ({ action }));
}

/** Valid `run`/`runsync` bodies: an input object and, sometimes, webhook, policy and s3Config. */
export function jobSubmitBodyArb(): fc.Arbitrary<JobSubmitRequest> {
  const input = fc.dictionary(fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,9}$/), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4, noNullPrototype: true });
  const policy = fc.record(
    {
      executionTimeout: fc.integer({ min: EXECUTION_TIMEOUT_RANGE.minimum, max: EXECUTION_TIMEOUT_RANGE.maximum }),
      ttl: fc.integer({ min: JOB_TTL_RANGE.minimum, max: JOB_TTL_RANGE.maximum }),
      lowPriority: fc.boolean(),
    },
    { requiredKeys: [], noNullPrototype: true },
  );
  const webhook = fc.tuple(fc.constantFrom("https://hooks.example.com/", "http://localhost:9000/cb/"), fc.stringMatching(/^[a-z0-9]{0,12}$/)).map(([a, b]) => a + b);
  const s3Config = fc.record(
    { accessId: fc.string(), accessSecret: fc.string(), bucketName: fc.stringMatching(/^[a-z0-9-]{3,20}$/), endpointUrl: fc.constant("https://s3.example.com") },
    { noNullPrototype: true },
  );
  return fc
    .record({ input, webhook, policy, s3Config }, { requiredKeys: ["input"], noNullPrototype: true })
    .map((body) => json(body) as JobSubmitRequest);
}

/** Valid `wait` query values (absent means the default). */
export function waitQueryArb(): fc.Arbitrary<string | undefined> {
  return fc.option(fc.integer({ min: WAIT_RANGE.minimum, max: WAIT_RANGE.maximum }).map(String), { nil: undefined });
}

/** Valid `ttl` query values (absent means the job keeps its ttl). */
export function ttlQueryArb(): fc.Arbitrary<string | undefined> {
  return fc.option(fc.integer({ min: 1, max: JOB_TTL_RANGE.maximum }).map(String), { nil: undefined });
}
