/**
 * The control of a broken createPod body: the same body with the rule's breaking part removed or
 * made valid, nothing else changed (refusal-credit.ts says why a refusal needs one). Each rule
 * names its part: a top-level field put back as the valid body had it, a mount or flag taken
 * out, a `cpu` given a flavor and vCPU count the target's own catalog offers. A rule whose
 * breaking has two parts (`gpu` and `cpu` both set) has two controls, one per part: the body
 * with its `gpu` alone, and with its `cpu` alone (as sent: a `cpu` the target would refuse on
 * its own credits nothing).
 */
import type { RuleId } from "../../../sim/api/rules/index.ts";
import type { BrokenCase } from "./create-broken-bodies.ts";
import { usableCatalog, type TargetCatalog } from "./create-target-catalog.ts";

type Draft = Record<string, any>;
const copy = (v: unknown): Draft => JSON.parse(JSON.stringify(v)) as Draft;
const isObject = (v: unknown): v is Draft => typeof v === "object" && v !== null && !Array.isArray(v);

export interface Controls {
  readonly controls: readonly unknown[];
  readonly noControl?: string;
}

/** The body with top-level `fields` as the valid body has them (absent there: taken out). */
function restored(broken: Draft, valid: Draft, fields: readonly string[]): Draft {
  const d = copy(broken);
  for (const f of fields) {
    if (f in valid) d[f] = copy({ v: valid[f] }).v;
    else delete d[f];
  }
  return d;
}

const NO_FLAVOR = "the target's CPU catalog gives no flavor with vCPU counts it could be read for, so no CPU body to compare with";

/** `cpu` made valid from the catalog: the same flavor when its counts are known, else the first known one. */
function withValidCpu(d: Draft, tc: TargetCatalog): Draft | undefined {
  const flavors = usableCatalog(tc).cpuFlavors.filter((f) => f.vcpuCounts.length > 0);
  const id = isObject(d.cpu) ? d.cpu.id : undefined;
  const flavor = flavors.find((f) => f.id === id) ?? flavors[0];
  if (flavor === undefined) return undefined;
  d.cpu = { id: flavor.id, vcpuCount: Math.min(...flavor.vcpuCounts) };
  return d;
}

/** `gpu` made valid: the valid body's, else the catalog's first type with stock. */
function withValidGpu(d: Draft, valid: Draft, tc: TargetCatalog): Draft | undefined {
  const id = isObject(valid.gpu) ? valid.gpu.id : usableCatalog(tc).gpuTypes[0]?.id;
  if (id === undefined) return undefined;
  d.gpu = isObject(valid.gpu) ? copy(valid.gpu) : { id };
  return d;
}

const one = (d: Draft | undefined, why = NO_FLAVOR): Controls => (d ? { controls: [d] } : { controls: [], noControl: why });

const FIELD_PART: Partial<Record<RuleId, readonly string[]>> = {
  "pods.create.name-required": ["name"],
  "pods.create.name-min-length": ["name"],
  "pods.create.image-required": ["image"],
  "pods.create.disk-minimum": ["disk"],
  "pods.create.port-format": ["ports"],
  "pods.create.env-string-values": ["env"],
  "pods.create.cloud-enum": ["cloud"],
  "pods.create.unknown-registry": ["registry"],
  "pods.create.unknown-data-center": ["dataCenterIds"],
  "pods.create.network-volume-data-center": ["dataCenterIds"],
  "pods.create.global-networking-nvidia": ["globalNetworking"],
  "pods.create.global-networking-data-center": ["globalNetworking"],
};

const CPU_PART: ReadonlySet<RuleId> = new Set([
  "pods.create.cpu-id-required", "pods.create.cpu-id-min-length", "pods.create.vcpu-count-required", "pods.create.vcpu-minimum",
  "pods.create.vcpu-power-of-two", "pods.create.vcpu-valid-for-flavor", "pods.create.unknown-cpu-flavor",
] as RuleId[]);

/** The controls of one broken case of `ruleId`. */
export function createControls(ruleId: RuleId, c: BrokenCase, tc: TargetCatalog): Controls {
  if (c.control !== undefined) return { controls: [c.control] };
  if (!isObject(c.broken)) return { controls: [c.valid] };
  const broken = c.broken;
  const valid = c.valid as unknown as Draft;
  const fields = FIELD_PART[ruleId];
  if (fields) return { controls: [restored(broken, valid, fields)] };
  if (CPU_PART.has(ruleId)) return one(withValidCpu(copy(broken), tc));
  switch (ruleId) {
    case "pods.create.gpu-id-required":
    case "pods.create.gpu-count-minimum":
    case "pods.create.unknown-gpu-type":
      return one(withValidGpu(copy(broken), valid, tc), "the target's catalog gives no GPU type to compare with");
    case "pods.create.gpu-cpu-exclusive": {
      if (!("gpu" in broken) && !("cpu" in broken)) return { controls: [c.valid] };
      // Both set: each part alone must be a body the target takes.
      const gpuOnly = copy(broken);
      delete gpuOnly.cpu;
      const cpuOnly = copy(broken);
      delete cpuOnly.gpu;
      delete cpuOnly.globalNetworking;
      if (isObject(cpuOnly.mounts) && "persistent" in cpuOnly.mounts) delete cpuOnly.mounts.persistent;
      if (cpuOnly.cloud === "COMMUNITY") delete cpuOnly.cloud;
      return { controls: [gpuOnly, cpuOnly] };
    }
    case "pods.create.persistent-on-cpu":
    case "pods.create.mount-entry-incomplete":
    case "pods.create.network-empty-array":
    case "pods.create.unknown-network-volume": {
      const d = copy(broken);
      delete d.mounts;
      return { controls: [d] };
    }
    case "pods.create.mounts-exclusive": {
      const d = copy(broken);
      if (isObject(d.mounts)) delete d.mounts.persistent;
      return { controls: [d] };
    }
    case "pods.create.network-max-items": {
      const d = copy(broken);
      if (isObject(d.mounts) && Array.isArray(d.mounts.network)) d.mounts.network = d.mounts.network.slice(0, 1);
      return { controls: [d] };
    }
    case "pods.create.persistent-size-minimum": {
      const d = copy(broken);
      if (isObject(d.mounts) && isObject(d.mounts.persistent)) d.mounts.persistent.size = 20;
      return { controls: [d] };
    }
    default:
      return { controls: [c.valid] };
  }
}
