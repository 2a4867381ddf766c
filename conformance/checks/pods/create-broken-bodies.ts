/**
 * Bodies that break exactly one createPod rule, as fast-check arbitraries over the target's
 * valid bodies. Most come from sim/api's breakers (`breakRule`); two rules get more variety
 * than one breaker gives, because the spec states them for every level and every field:
 * unknown properties at the body, `gpu`, `cpu`, `mounts` and each mount entry ("`gpu` and
 * `cpu` objects also reject unlisted properties"; Mounts and its entries have "no extra
 * properties"), and a wrong type in each field, or a body that is not an object at all.
 */
import fc from "fast-check";
import type { RuleId } from "../../../sim/api/rules/index.ts";
import { podCreateRules } from "../../../sim/api/rules/pod-create-rules.ts";
import type { CreatePodRequest } from "../../../sim/api/schemas/index.ts";
import { breakRule, type ArbitraryCatalog } from "../../../sim/api/validate/index.ts";
import { knownCatalog, usableCatalog, type TargetCatalog } from "./create-target-catalog.ts";
import type { ValueStore } from "../../values/value-store.ts";
import { validBodyArb } from "./create-valid-body.ts";

/** The createPod rules that judge a request: each has a way to break it. */
export const CREATE_REQUEST_RULES: readonly RuleId[] = podCreateRules.filter((r) => r.kind === "request").map((r) => r.id);

export interface BrokenCase {
  readonly valid: CreatePodRequest;
  /** The body sent; undefined when this valid body offers no way to break the rule. */
  readonly broken: unknown;
  /** How it was broken, for the failure's words. */
  readonly how: string;
  /** The body before the breaking, where the breaking reshaped the valid one (its control: create-control-body.ts). */
  readonly control?: unknown;
}

type Draft = Record<string, any>;
const copy = (v: unknown): Draft => JSON.parse(JSON.stringify(v)) as Draft;

/** The properties each level of the body lists; anything else is unknown there. */
const LISTED: Readonly<Record<string, readonly string[]>> = {
  body: ["name", "image", "args", "disk", "ports", "env", "registry", "gpu", "cpu", "mounts", "cloud", "dataCenterIds", "globalNetworking"],
  gpu: ["id", "count"],
  cpu: ["id", "vcpuCount"],
  mounts: ["persistent", "network"],
  persistent: ["size", "path"],
  network: ["volumeId", "path"],
};

type Level = "body" | "gpu" | "cpu" | "mounts" | "persistent" | "network";
const LEVELS: readonly Level[] = ["body", "gpu", "cpu", "mounts", "persistent", "network"];
const MOUNT_PATH = "/workspace";

/**
 * The body reshaped, as a valid body still, so that it has `level` (a GPU pod for `gpu` and a
 * persistent mount, a CPU pod for `cpu`, a mount on a volume of the target for `network`), and
 * the object at that level; undefined when the target's catalog cannot give the body that level.
 */
function withLevel(d: Draft, level: Level, tc: TargetCatalog): Draft | undefined {
  const usable = usableCatalog(tc);
  const asGpu = (): boolean => {
    if (d.gpu) return true;
    const gpu = usable.gpuTypes[0];
    if (gpu === undefined) return false;
    delete d.cpu;
    delete d.globalNetworking;
    d.gpu = { id: gpu.id };
    return true;
  };
  switch (level) {
    case "body":
      return d;
    case "gpu":
      return asGpu() ? d.gpu : undefined;
    case "cpu": {
      if (d.cpu) return d.cpu;
      const flavor = usable.cpuFlavors.find((f) => f.vcpuCounts.length > 0);
      if (flavor === undefined) return undefined;
      delete d.gpu;
      delete d.globalNetworking;
      if (d.mounts?.persistent) delete d.mounts.persistent;
      if (d.cloud === "COMMUNITY") delete d.cloud;
      d.cpu = { id: flavor.id, vcpuCount: Math.min(...flavor.vcpuCounts) };
      return d.cpu;
    }
    case "mounts":
      d.mounts ??= {};
      return d.mounts;
    case "persistent":
      if (!asGpu()) return undefined;
      d.mounts = { persistent: { size: 20, path: MOUNT_PATH } };
      return d.mounts.persistent;
    case "network": {
      if (d.mounts?.network?.[0]) return d.mounts.network[0];
      const volume = tc.volumes[0];
      if (volume === undefined) return undefined;
      delete d.dataCenterIds;
      delete d.globalNetworking;
      d.mounts = { network: [{ volumeId: volume.id, path: MOUNT_PATH }] };
      return d.mounts.network[0];
    }
  }
}

const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));
/** Names clients really send by mistake (GraphQL's, the response's), then made-up ones. */
const unknownKeyArb = fc.oneof(
  fc.constantFrom("gpuCount", "memory", "volumeInGb", "containerDiskInGb", "templateId", "status", "count", "size", "extra"),
  fc.stringMatching(/^[a-z][a-zA-Z0-9]{1,11}$/).filter((k) => !PROTOTYPE_NAMES.has(k)),
);
const unknownValueArb = fc.oneof(fc.integer({ min: 1, max: 64 }), fc.string({ minLength: 1, maxLength: 8 }), fc.boolean());

/** Levels this target's catalog lets a body have. */
function levelsFor(tc: TargetCatalog): Level[] {
  const sample = { name: "x", image: "ubuntu:22.04" };
  return LEVELS.filter((level) => withLevel(copy(sample), level, tc) !== undefined);
}

function unknownPropertyArb(valid: fc.Arbitrary<CreatePodRequest>, tc: TargetCatalog, only?: Level): fc.Arbitrary<BrokenCase> {
  const levels = only ? [only] : levelsFor(tc);
  return fc.tuple(valid, fc.constantFrom(...levels), unknownKeyArb, unknownValueArb).map(([body, level, drawn, value]) => {
    const d = copy(body);
    const target = withLevel(d, level, tc)!;
    const control = copy(d);
    // A name the level lists ("count" in gpu) is made unlisted.
    const key = LISTED[level]!.includes(drawn) ? `x${drawn}` : drawn;
    target[key] = value;
    return { valid: body, broken: d, control, how: `an unlisted property ${JSON.stringify(key)} ${level === "body" ? "in the body" : `in ${level}`}` };
  });
}

/** One field given a value of the wrong type, or the body replaced by a non-object. */
const WRONG_TYPES: readonly { readonly how: string; readonly level?: Level; readonly apply: (d: Draft) => unknown }[] = [
  { how: "name as a number", apply: (d) => ({ ...d, name: 42 }) },
  { how: "name as an array", apply: (d) => ({ ...d, name: [d.name] }) },
  { how: "image as a boolean", apply: (d) => ({ ...d, image: false }) },
  { how: "args as a number", apply: (d) => ({ ...d, args: 42 }) },
  { how: "disk as a string", apply: (d) => ({ ...d, disk: "20" }) },
  { how: "disk as a fraction", apply: (d) => ({ ...d, disk: 20.5 }) },
  { how: "ports as a string", apply: (d) => ({ ...d, ports: "8888/http" }) },
  { how: "a port as a number", apply: (d) => ({ ...d, ports: [8888] }) },
  { how: "env as an array", apply: (d) => ({ ...d, env: ["KEY=value"] }) },
  { how: "registry as a number", apply: (d) => ({ ...d, registry: 12 }) },
  { how: "dataCenterIds as a string", apply: (d) => ({ ...d, dataCenterIds: "US-TX-3" }) },
  { how: "a data center id as a number", apply: (d) => ({ ...d, dataCenterIds: [1] }) },
  { how: "globalNetworking as a string", apply: (d) => ({ ...d, globalNetworking: "false" }) },
  { how: "mounts as an array", apply: (d) => ({ ...d, mounts: [] }) },
  { how: "gpu as a string", level: "gpu", apply: (d) => ({ ...d, gpu: String(d.gpu.id) }) },
  { how: "gpu.id as a number", level: "gpu", apply: (d) => ({ ...d, gpu: { ...d.gpu, id: 4090 } }) },
  { how: "cpu.vcpuCount as a string", level: "cpu", apply: (d) => ({ ...d, cpu: { ...d.cpu, vcpuCount: String(d.cpu.vcpuCount) } }) },
  { how: "the body as an array", apply: (d) => [d] },
  { how: "the body as a string", apply: (d) => JSON.stringify(d) },
  { how: "the body as a number", apply: () => 42 },
];

function fieldTypeArb(valid: fc.Arbitrary<CreatePodRequest>, tc: TargetCatalog, only?: number): fc.Arbitrary<BrokenCase> {
  const usable = WRONG_TYPES.map((_, i) => i).filter((i) => only === undefined || i === only);
  return fc.tuple(valid, fc.constantFrom(...usable)).map(([body, i]) => {
    const wrong = WRONG_TYPES[i]!;
    const d = copy(body);
    if (wrong.level && withLevel(d, wrong.level, tc) === undefined) return { valid: body, broken: undefined, how: wrong.how };
    return { valid: body, broken: wrong.apply(d), control: copy(d), how: wrong.how };
  });
}

/** The catalog a breaker gets: rules that need a fact about an id get only ids whose facts are known. */
function catalogFor(ruleId: RuleId, tc: TargetCatalog): ArbitraryCatalog {
  if (ruleId === "pods.create.global-networking-nvidia") return knownCatalog(tc, { knownMakers: true });
  // A CPU part is drawn only from flavors whose vCPU counts the catalog gives (never the spec's minimum guessed).
  if (ruleId === "pods.create.vcpu-valid-for-flavor" || ruleId === "pods.create.gpu-cpu-exclusive") return knownCatalog(tc, { exactFlavors: true });
  return knownCatalog(tc);
}

/**
 * Broken bodies for `ruleId`, or undefined when the target offers no valid body to start from.
 * With `values` (the run's value store) the valid part holds only values the target is not known
 * to refuse: a rule is broken in one place, never beside a value refused for another reason.
 */
export function brokenCaseArb(ruleId: RuleId, tc: TargetCatalog, values?: ValueStore): fc.Arbitrary<BrokenCase> | undefined {
  const valid = validBodyArb(tc, values ? { values } : {});
  if (valid === undefined) return undefined;
  if (ruleId === "pods.create.unknown-property") return unknownPropertyArb(valid, tc);
  if (ruleId === "pods.create.field-type") return fieldTypeArb(valid, tc);
  const catalog = catalogFor(ruleId, tc);
  return valid.map((body) => {
    const broken = breakRule(ruleId, body, catalog);
    return { valid: body, broken, how: ruleId === "pods.create.gpu-cpu-exclusive" ? exclusiveHow(broken) : "" };
  });
}

/** Which half of "exactly one of gpu or cpu" a body breaks. */
export function exclusiveHow(broken: unknown): string {
  const b = typeof broken === "object" && broken !== null ? (broken as Draft) : {};
  return "gpu" in b && "cpu" in b ? "both gpu and cpu set" : "neither gpu nor cpu set";
}

/**
 * One case of each way the rule is broken (each level for unknown properties, each wrong type
 * for field types), sent before the drawn ones so that every run covers them all.
 */
export function brokenExamples(ruleId: RuleId, tc: TargetCatalog, seed: number, values?: ValueStore): BrokenCase[] {
  const valid = validBodyArb(tc, values ? { values } : {});
  if (valid === undefined) return [];
  const arbs =
    ruleId === "pods.create.unknown-property"
      ? levelsFor(tc).map((level) => unknownPropertyArb(valid, tc, level))
      : ruleId === "pods.create.field-type"
        ? WRONG_TYPES.map((_, i) => fieldTypeArb(valid, tc, i))
        : [];
  if (ruleId === "pods.create.gpu-cpu-exclusive") {
    // One of each half, so that every run tries both.
    const drawn = fc.sample(brokenCaseArb(ruleId, tc, values)!, { seed, numRuns: 20 }).filter((c) => c.broken !== undefined);
    return [...new Map(drawn.map((c) => [c.how, c])).values()];
  }
  return arbs.flatMap((arb) => fc.sample(arb, { seed, numRuns: 1 })).filter((c) => c.broken !== undefined);
}

/** Whether any of a sample of cases can break the rule (a catalog may offer no way to). */
export function breakable(arb: fc.Arbitrary<BrokenCase>, seed: number): boolean {
  return fc.sample(arb, { seed, numRuns: 30 }).some((c) => c.broken !== undefined);
}
