/**
 * Defects that accept what the model refuses: a request refused for one reason (the refusal's
 * detail names it) is mended the way a lax implementation would (a default filled in, a bad
 * value replaced or dropped) and sent again; when the mended request succeeds, that answer
 * stands. A mend may read the catalog through the model, as an implementation would its own.
 */
import type { ApiOutcome, ApiRequest, ApiResponse } from "../api/types.ts";
import type { Defect, DefectArea } from "./defect.ts";
import { type Json, detailOf, editBody, isObject } from "./edits.ts";
import type { RuleId } from "../api/rules/index.ts";

/** A GET through the model with the request's own key, its JSON body when it answers 2xx. */
type Ask = (path: string) => Json | undefined;

const answered = (out: ApiOutcome): ApiResponse | undefined => (out.kind === "response" ? out.response : undefined);
const ok = (res: ApiResponse | undefined) => res !== undefined && res.status >= 200 && res.status < 300;

/** `op` refused with a detail matching `reason`: mend the body and try again. */
function acceptRefused(op: string, reason: RegExp, mend: (body: Json, ask: Ask) => void): Defect["around"] {
  return (req, at, next) => {
    const out = next(req);
    const res = answered(out);
    if (at.op !== op || !res || res.status < 400 || res.status >= 500 || !reason.test(detailOf(res))) return out;
    const ask: Ask = (path) => {
      const got = answered(next({ method: "GET", path, query: {}, headers: req.headers, body: undefined }));
      return ok(got) && isObject(got!.body) ? got!.body : undefined;
    };
    const retry = next(editBody(req, (b) => mend(b, ask)));
    return ok(answered(retry)) ? retry : out;
  };
}

const firstId = (list: unknown): string | undefined => (Array.isArray(list) && isObject(list[0]) && typeof list[0].id === "string" ? list[0].id : undefined);
const firstGpu = (ask: Ask) => firstId(ask("/v2/catalog/gpus")?.gpus);
const firstCpu = (ask: Ask) => firstId(ask("/v2/catalog/cpus")?.cpus);
/** A vCPU count the flavor offers (the smallest), or 2. */
function offeredVcpu(ask: Ask, flavor: unknown): number {
  const cpus = ask("/v2/catalog/cpus")?.cpus;
  const f = Array.isArray(cpus) ? cpus.find((c) => isObject(c) && c.id === flavor) : undefined;
  const allowed = isObject(f) && isObject(f.vcpu) && Array.isArray(f.vcpu.allowed) ? f.vcpu.allowed : [];
  return typeof allowed[0] === "number" ? allowed[0] : 2;
}
const gpu = (b: Json): Json | undefined => (isObject(b.gpu) ? b.gpu : undefined);
const cpu = (b: Json): Json | undefined => (isObject(b.cpu) ? b.cpu : undefined);
const mounts = (b: Json): Json | undefined => (isObject(b.mounts) ? b.mounts : undefined);

/** The optional createPod/PATCH fields and the JSON type each must have. */
const OPTIONAL_TYPES: Readonly<Record<string, (v: unknown) => boolean>> = {
  args: (v) => typeof v === "string",
  disk: (v) => typeof v === "number",
  ports: Array.isArray,
  env: isObject,
  registry: (v) => v === null || typeof v === "string",
  cloud: (v) => typeof v === "string",
  dataCenterIds: Array.isArray,
  globalNetworking: (v) => typeof v === "boolean",
  mounts: isObject,
};
const dropMistyped = (b: Json) => {
  for (const [k, fits] of Object.entries(OPTIONAL_TYPES)) if (k in b && !fits(b[k])) delete b[k];
};
/** A PATCH has no required field: every mutable one is optional there. */
const UPDATE_TYPES: Readonly<Record<string, (v: unknown) => boolean>> = {
  ...OPTIONAL_TYPES,
  name: (v) => typeof v === "string",
  image: (v) => typeof v === "string",
  locked: (v) => typeof v === "boolean",
};
const dropMistypedUpdate = (b: Json) => {
  for (const [k, fits] of Object.entries(UPDATE_TYPES)) if (k in b && !fits(b[k])) delete b[k];
};

const create = (name: string, rule: RuleId, does: string, reason: RegExp, mend: (b: Json, ask: Ask) => void, area: DefectArea = "pods.create"): Defect => ({
  name, area, rule, does, around: acceptRefused("createPod", reason, mend),
});

/** Why turning global networking off instead of refusing it is legal under the lenient profile. */
const GLOBAL_NETWORKING_UPSTREAM =
  "global networking \"requires an NVIDIA GPU and a data center that supports global networking (both enforced upstream)\": the sentence states the requirement, not a refusal, and a pod that comes out without global networking keeps it";

export const refusalDefects: readonly Defect[] = [
  { name: "create-drops-mistyped-fields", area: "pods.create", rule: "pods.create.field-type", does: "createPod drops optional fields of the wrong type instead of refusing the body",
    request: (req, at) => (at.op === "createPod" ? editBody(req, dropMistyped) : req) },
  create("create-default-gpu-type", "pods.create.gpu-id-required", "createPod given `gpu` without `id` takes the catalog's first GPU type",
    /gpu\.id is missing/, (b, ask) => { const g = gpu(b); if (g) g.id = firstGpu(ask); }),
  create("create-default-cpu-flavor", "pods.create.cpu-id-required", "createPod given `cpu` without `id` takes the catalog's first CPU flavor",
    /cpu\.id is missing/, (b, ask) => { const c = cpu(b); if (c) c.id = firstCpu(ask); }),
  create("create-empty-cpu-flavor", "pods.create.cpu-id-min-length", "createPod given an empty `cpu.id` takes the catalog's first CPU flavor",
    /cpu\.id is empty/, (b, ask) => { const c = cpu(b); if (c) c.id = firstCpu(ask); }),
  create("create-default-vcpu", "pods.create.vcpu-count-required", "createPod given `cpu` without `vcpuCount` takes the flavor's smallest",
    /vcpuCount is missing/, (b, ask) => { const c = cpu(b); if (c) c.vcpuCount = offeredVcpu(ask, c.id); }),
  create("create-fills-mount-entry", "pods.create.mount-entry-incomplete", "createPod fills in a mount entry's missing path (and a persistent mount's size)",
    /mounts\..* is missing/, (b) => {
      const m = mounts(b);
      if (isObject(m?.persistent)) { m.persistent.path ??= "/workspace"; m.persistent.size ??= 20; }
      if (Array.isArray(m?.network)) for (const n of m.network) if (isObject(n)) n.path ??= "/workspace";
    }),
  create("create-snaps-vcpu", "pods.create.vcpu-valid-for-flavor", "createPod replaces a vCPU count the flavor does not offer with its smallest",
    /vcpuCount is .* does not offer/, (b, ask) => { const c = cpu(b); if (c) c.vcpuCount = offeredVcpu(ask, c.id); }),
  create("create-unknown-gpu-replaced", "pods.create.unknown-gpu-type", "createPod replaces a GPU type the catalog does not have with its first",
    /is not a GPU type of the catalog/, (b, ask) => { const g = gpu(b); if (g) g.id = firstGpu(ask); }),
  create("create-unknown-cpu-replaced", "pods.create.unknown-cpu-flavor", "createPod replaces a CPU flavor the catalog does not have with its first",
    /is not a CPU flavor of the catalog/, (b, ask) => { const c = cpu(b); if (c) c.id = firstCpu(ask); }),
  create("create-unknown-volume-dropped", "pods.create.unknown-network-volume", "createPod drops a network mount whose volume does not exist",
    /is not an existing network volume/, (b) => { const m = mounts(b); if (m) delete m.network; }),
  create("create-unknown-registry-dropped", "pods.create.unknown-registry", "createPod drops a registry credential the caller does not have",
    /is not one of your container registry credentials/, (b) => { b.registry = null; }),
  { ...create("create-volume-dc-ignored", "pods.create.network-volume-data-center", "createPod places a pod by its network volume, ignoring dataCenterIds that leave the volume out",
    /which dataCenterIds does not include/, (b) => { delete b.dataCenterIds; }),
    legalUnderLenient: "`dataCenterIds` are \"Preferred data centers\" and the volume must be \"in the same data center as the pod\": a pod placed in its volume's data center, outside the preferred ones, breaks neither sentence (the refusal is the emulator's reading)" },
  { ...create("create-cpu-global-networking", "pods.create.global-networking-nvidia", "createPod turns global networking off for a pod that cannot have it, instead of refusing it",
    /globalNetworking is not available|globalNetworking needs an NVIDIA GPU/, (b) => { b.globalNetworking = false; }),
    legalUnderLenient: GLOBAL_NETWORKING_UPSTREAM },
  { ...create("create-global-networking-anywhere", "pods.create.global-networking-data-center", "createPod turns global networking off where the data centers do not support it, instead of refusing it",
    /globalNetworking needs a data center/, (b) => { b.globalNetworking = false; }),
    legalUnderLenient: GLOBAL_NETWORKING_UPSTREAM },
  { name: "update-drops-mistyped-fields", area: "pods.update", rule: "pods.update.field-type", does: "A PATCH drops optional fields of the wrong type instead of refusing the body",
    request: (req, at) => (at.op === "updatePod" ? editBody(req, dropMistypedUpdate) : req) },
  { name: "update-cpu-global-networking", area: "pods.update", rule: "pods.update.global-networking-nvidia", does: "A PATCH turning global networking on for a CPU pod is answered 200 and ignored",
    around: acceptRefused("updatePod", /globalNetworking is not available/, (b) => { delete b.globalNetworking; }),
    legalUnderLenient: GLOBAL_NETWORKING_UPSTREAM },
];
