/**
 * Validation of a createPod body: the CreatePodRequest schema (each failure 422), then the
 * checks the handler makes (400): exactly one of gpu/cpu, no persistent mount on a CPU pod, at
 * most one mount kind, no empty network array, vCPU count a power of two that the flavor offers, every id naming
 * something in the catalog, network volume and global networking compatible with the data
 * centers asked for.
 *
 * Every violation is listed, but each value is judged by the most basic rule it breaks first:
 * the flavor's vCPU counts are consulted only for a count that is a power of two of at least 2,
 * and the catalog only for ids that are non-empty strings. So one mistake gives one violation.
 */
import type { Cloud, CreatePodRequest } from "../schemas/index.ts";
import { CreatePodRequest as CreatePodRequestSchema } from "../schemas/index.ts";
import { copyStringRecord, has, isPlainObject, own, type JsonObject } from "./own.ts";
import { prototypeKeyViolations } from "./prototype-key-violations.ts";
import { schemaViolations, type IssueRoute } from "./schema-violations.ts";
import { sharedValidator } from "./shared-validator.ts";
import { fail, type Validated, type Violation } from "./violation.ts";

/** The catalog lookups the handler needs; each answers undefined for an unknown id. */
export interface CreatePodContext {
  gpuType(id: string): { readonly manufacturer: string } | undefined;
  cpuFlavor(id: string): { readonly vcpuCounts: readonly number[] } | undefined;
  networkVolume(id: string): { readonly dataCenterId: string } | undefined;
  dataCenter(id: string): { readonly globalNetwork: boolean } | undefined;
  /** The caller's own registry credential with this id; when absent, `registry` is not checked. */
  registry?(id: string): { readonly id: string } | undefined;
}

/** The emulator's container disk when the body names none, in GB. */
export const DEFAULT_CONTAINER_DISK_GB = 50;

interface NormalizedCommon {
  readonly name: string;
  readonly image: string;
  readonly args: string;
  readonly disk: number;
  readonly ports: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly registry: string | null;
  readonly cloud: Cloud;
  readonly dataCenterIds: readonly string[];
  readonly globalNetworking: boolean;
  readonly mounts: {
    readonly persistent?: { readonly size: number; readonly path: string };
    readonly network?: readonly { readonly volumeId: string; readonly path: string }[];
  };
}

/** A valid createPod body with every default applied. */
export type NormalizedCreatePod =
  | (NormalizedCommon & { readonly kind: "gpu"; readonly gpu: { readonly id: string; readonly count: number } })
  | (NormalizedCommon & { readonly kind: "cpu"; readonly cpu: { readonly id: string; readonly vcpuCount: number } });

const ROUTES: readonly IssueRoute[] = [
  { keyword: "additionalProperties", ruleId: "pods.create.unknown-property" },
  { keyword: "required", path: /^\/name$/, ruleId: "pods.create.name-required" },
  { keyword: "required", path: /^\/image$/, ruleId: "pods.create.image-required" },
  { keyword: "required", path: /^\/gpu\/id$/, ruleId: "pods.create.gpu-id-required" },
  { keyword: "required", path: /^\/cpu\/id$/, ruleId: "pods.create.cpu-id-required" },
  { keyword: "required", path: /^\/cpu\/vcpuCount$/, ruleId: "pods.create.vcpu-count-required" },
  { keyword: "required", path: /^\/mounts\//, ruleId: "pods.create.mount-entry-incomplete" },
  { keyword: "minLength", path: /^\/name$/, ruleId: "pods.create.name-min-length" },
  { keyword: "minLength", path: /^\/cpu\/id$/, ruleId: "pods.create.cpu-id-min-length" },
  { keyword: "minimum", path: /^\/disk$/, ruleId: "pods.create.disk-minimum" },
  { keyword: "minimum", path: /^\/gpu\/count$/, ruleId: "pods.create.gpu-count-minimum" },
  { keyword: "minimum", path: /^\/cpu\/vcpuCount$/, ruleId: "pods.create.vcpu-minimum" },
  { keyword: "minimum", path: /^\/mounts\/persistent\/size$/, ruleId: "pods.create.persistent-size-minimum" },
  { keyword: "maxItems", path: /^\/mounts\/network$/, ruleId: "pods.create.network-max-items" },
  { keyword: "pattern", path: /^\/ports\/\d+$/, ruleId: "pods.create.port-format" },
  { keyword: "enum", path: /^\/cloud$/, ruleId: "pods.create.cloud-enum" },
  { keyword: "type", path: /^\/env\/[^/]+$/, ruleId: "pods.create.env-string-values" },
  { ruleId: "pods.create.field-type" },
];

const ROOT_HINT = 'a JSON object such as {"name": "my-pod", "image": "runpod/pytorch:2.4.0", "gpu": {"id": "NVIDIA GeForce RTX 4090"}}';

export function isPowerOfTwo(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && (n & (n - 1)) === 0;
}

const nonEmptyString = (v: unknown): v is string => typeof v === "string" && v !== "";

function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === "string") ? (value as string[]) : undefined;
}

function handlerViolations(body: JsonObject, ctx: CreatePodContext): Violation[] {
  const out: Violation[] = [];
  const hasGpu = has(body, "gpu");
  const hasCpu = has(body, "cpu");
  if (hasGpu && hasCpu) {
    out.push({
      ruleId: "pods.create.gpu-cpu-exclusive",
      path: "",
      message: "The request body sets both gpu and cpu; send exactly one: gpu for a GPU pod or cpu for a CPU pod.",
    });
  } else if (!hasGpu && !hasCpu) {
    out.push({
      ruleId: "pods.create.gpu-cpu-exclusive",
      path: "",
      message: 'The request body sets neither gpu nor cpu; send exactly one, e.g. "gpu": {"id": "NVIDIA GeForce RTX 4090"} or "cpu": {"id": "cpu3c", "vcpuCount": 2}.',
    });
  }

  const gpuId = own(own(body, "gpu"), "id");
  const gpuType = typeof gpuId === "string" ? ctx.gpuType(gpuId) : undefined;
  if (typeof gpuId === "string" && gpuType === undefined) {
    out.push({
      ruleId: "pods.create.unknown-gpu-type",
      path: "/gpu/id",
      message: `gpu.id ${JSON.stringify(gpuId)} is not a GPU type of the catalog; send the id of a GPU type listed by GET /v2/catalog/gpus.`,
    });
  }

  const cpu = own(body, "cpu");
  const flavorId = own(cpu, "id");
  const flavor = nonEmptyString(flavorId) ? ctx.cpuFlavor(flavorId) : undefined;
  if (nonEmptyString(flavorId) && flavor === undefined) {
    out.push({
      ruleId: "pods.create.unknown-cpu-flavor",
      path: "/cpu/id",
      message: `cpu.id ${JSON.stringify(flavorId)} is not a CPU flavor of the catalog; send a flavor id listed by GET /v2/catalog/cpus.`,
    });
  }
  const vcpuCount = own(cpu, "vcpuCount");
  if (typeof vcpuCount === "number" && Number.isInteger(vcpuCount) && vcpuCount >= 2) {
    if (!isPowerOfTwo(vcpuCount)) {
      out.push({
        ruleId: "pods.create.vcpu-power-of-two",
        path: "/cpu/vcpuCount",
        message: `cpu.vcpuCount is ${vcpuCount}, which is not a power of two; send 2, 4, 8, 16 or another power of two that the flavor offers.`,
      });
    } else if (flavor !== undefined && !flavor.vcpuCounts.includes(vcpuCount)) {
      out.push({
        ruleId: "pods.create.vcpu-valid-for-flavor",
        path: "/cpu/vcpuCount",
        message: `cpu.vcpuCount is ${vcpuCount}, which the flavor ${JSON.stringify(flavorId)} does not offer; send one of ${flavor.vcpuCounts.join(", ")}.`,
      });
    }
  }

  const mounts = own(body, "mounts");
  const hasPersistent = has(mounts, "persistent");
  const network = own(mounts, "network");
  if (hasPersistent && has(mounts, "network")) {
    out.push({
      ruleId: "pods.create.mounts-exclusive",
      path: "/mounts",
      message: "mounts sets both persistent and network; send at most one of them (network mounts are preferred).",
    });
  }
  if (Array.isArray(network) && network.length === 0) {
    out.push({
      ruleId: "pods.create.network-empty-array",
      path: "/mounts/network",
      message: 'mounts.network is an empty array, which is not accepted; leave mounts out for a pod without a network volume, or send one entry such as [{"volumeId": "<id>", "path": "/workspace"}].',
    });
  }
  if (hasPersistent && hasCpu) {
    out.push({
      ruleId: "pods.create.persistent-on-cpu",
      path: "/mounts/persistent",
      message: 'mounts.persistent is not available on CPU pods; send a network mount instead, e.g. "network": [{"volumeId": "<id>", "path": "/workspace"}].',
    });
  }

  const requested = stringArray(own(body, "dataCenterIds")) ?? [];
  requested.forEach((id, i) => {
    if (ctx.dataCenter(id) === undefined) {
      out.push({
        ruleId: "pods.create.unknown-data-center",
        path: `/dataCenterIds/${i}`,
        message: `dataCenterIds[${i}] ${JSON.stringify(id)} is not a data center of the catalog; send ids listed by GET /v2/catalog/datacenters, or [] to let the scheduler choose.`,
      });
    }
  });

  // A registry credential is the caller's own: another account's id is as unknown as a made-up one.
  const registry = own(body, "registry");
  if (typeof registry === "string" && ctx.registry !== undefined && ctx.registry(registry) === undefined) {
    out.push({
      ruleId: "pods.create.unknown-registry",
      path: "/registry",
      message: `registry ${JSON.stringify(registry)} is not one of your container registry credentials; send an id listed by GET /v2/containerregistryauth, or null.`,
    });
  }

  // The data centers the pod could run in: those asked for, narrowed to each volume's.
  let candidates: string[] | undefined = requested.length > 0 ? [...requested] : undefined;
  if (Array.isArray(network)) {
    network.forEach((entry, i) => {
      const volumeId = own(entry, "volumeId");
      if (typeof volumeId !== "string") return;
      const volume = ctx.networkVolume(volumeId);
      const path = `/mounts/network/${i}/volumeId`;
      if (volume === undefined) {
        out.push({
          ruleId: "pods.create.unknown-network-volume",
          path,
          message: `mounts.network[${i}].volumeId ${JSON.stringify(volumeId)} is not an existing network volume; send the id of one of your network volumes.`,
        });
        return;
      }
      if (requested.length > 0 && !requested.includes(volume.dataCenterId)) {
        out.push({
          ruleId: "pods.create.network-volume-data-center",
          path,
          message: `The network volume ${JSON.stringify(volumeId)} is in ${volume.dataCenterId}, which dataCenterIds does not include; add ${JSON.stringify(volume.dataCenterId)} to dataCenterIds or send [].`,
        });
      }
      candidates = (candidates ?? [volume.dataCenterId]).filter((dc) => dc === volume.dataCenterId);
    });
  }

  if (own(body, "globalNetworking") === true) {
    if (hasCpu && !hasGpu) {
      out.push({
        ruleId: "pods.create.global-networking-nvidia",
        path: "/globalNetworking",
        message: "globalNetworking is not available on CPU pods; send false, or create a pod with an NVIDIA GPU.",
      });
    } else if (gpuType !== undefined && gpuType.manufacturer.toLowerCase() !== "nvidia") {
      out.push({
        ruleId: "pods.create.global-networking-nvidia",
        path: "/globalNetworking",
        message: `globalNetworking needs an NVIDIA GPU, and ${JSON.stringify(gpuId)} is made by ${gpuType.manufacturer}; send false or choose an NVIDIA GPU type.`,
      });
    }
    // With no data center named, the scheduler picks an eligible one; an empty candidate set
    // was already reported as a volume in the wrong data center.
    if (candidates !== undefined && candidates.length > 0 && !candidates.some((dc) => ctx.dataCenter(dc)?.globalNetwork === true)) {
      out.push({
        ruleId: "pods.create.global-networking-data-center",
        path: "/globalNetworking",
        message: `globalNetworking needs a data center that supports it, and ${candidates.join(", ")} does not; send false, or name a data center whose catalog entry has globalNetwork true.`,
      });
    }
  }
  return out;
}

function normalize(body: CreatePodRequest): NormalizedCreatePod {
  const mounts = body.mounts ?? {};
  const common: NormalizedCommon = {
    name: body.name,
    image: body.image,
    args: body.args ?? "",
    disk: body.disk ?? DEFAULT_CONTAINER_DISK_GB,
    ports: [...(body.ports ?? [])],
    env: copyStringRecord(body.env),
    registry: body.registry ?? null,
    cloud: body.cloud ?? "SECURE",
    dataCenterIds: [...(body.dataCenterIds ?? [])],
    globalNetworking: body.globalNetworking ?? false,
    mounts: {
      ...(mounts.persistent ? { persistent: { size: mounts.persistent.size, path: mounts.persistent.path } } : {}),
      ...(mounts.network ? { network: mounts.network.map((m) => ({ volumeId: m.volumeId, path: m.path })) } : {}),
    },
  };
  if (body.gpu !== undefined) return { ...common, kind: "gpu", gpu: { id: body.gpu.id, count: body.gpu.count ?? 1 } };
  const cpu = body.cpu as NonNullable<CreatePodRequest["cpu"]>;
  return { ...common, kind: "cpu", cpu: { id: cpu.id, vcpuCount: cpu.vcpuCount } };
}

export function validateCreatePod(body: unknown, ctx: CreatePodContext): Validated<NormalizedCreatePod> {
  const issues = sharedValidator().issues(CreatePodRequestSchema.$id as string, body);
  const violations = schemaViolations(issues, ROUTES, { rootHint: ROOT_HINT });
  if (isPlainObject(body)) {
    violations.push(...prototypeKeyViolations(own(body, "env"), "/env", "pods.create.unknown-property"));
    violations.push(...handlerViolations(body, ctx));
  }
  if (violations.length > 0) return fail(violations);
  return { ok: true, value: normalize(body as CreatePodRequest) };
}
