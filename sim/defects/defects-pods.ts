/** Defects of the REST pod operations: createPod's fields and numbered rules, the Pod record, PATCH mounts, actions. */
import { problemBody } from "../api/problem.ts";
import type { Defect } from "./defect.ts";
import { type Json, answer, detailOf, editAnswer, editBody, editPods, isObject, isPowerOfTwo } from "./edits.ts";

const CREATE_FIELDS = new Set(["name", "image", "args", "disk", "ports", "env", "registry", "gpu", "cpu", "mounts", "cloud", "dataCenterIds", "globalNetworking"]);
const UPDATE_FIELDS = new Set(["name", "image", "args", "disk", "ports", "env", "registry", "mounts", "globalNetworking"]);
const PORT = /^\d{1,5}\/(tcp|udp|http)$/i;

const onCreate = (edit: (b: Json) => void): Defect["request"] => (req, at) => (at.op === "createPod" ? editBody(req, edit) : req);
const onUpdate = (edit: (b: Json) => void): Defect["request"] => (req, at) => (at.op === "updatePod" ? editBody(req, edit) : req);
const mounts = (b: Json): Json | undefined => (isObject(b.mounts) ? b.mounts : undefined);

/**
 * A PATCH the model refuses for `reason` is sent again without its mounts, and that answer given:
 * the implementation silently ignores a mount change it must refuse.
 */
function ignoreRefusedMounts(status: number, reason: RegExp): Defect["around"] {
  return (req, at, next) => {
    const out = next(req);
    if (at.op !== "updatePod" || out.kind !== "response" || out.response.status !== status || !reason.test(detailOf(out.response))) return out;
    return next(editBody(req, (b) => delete b.mounts));
  };
}

export const podDefects: readonly Defect[] = [
  // createPod: schema and numbered rules.
  { name: "create-keeps-unknown-property", area: "pods.create", rule: "pods.create.unknown-property", does: "createPod drops top-level properties it does not know instead of refusing them",
    request: onCreate((b) => { for (const k of Object.keys(b)) if (!CREATE_FIELDS.has(k)) delete b[k]; }) },
  { name: "create-defaults-missing-name", area: "pods.create", rule: "pods.create.name-required", does: "createPod names a pod without `name` \"pod\" instead of refusing it",
    request: onCreate((b) => { if (!("name" in b)) b.name = "pod"; }) },
  { name: "create-accepts-empty-name", area: "pods.create", rule: "pods.create.name-min-length", does: "createPod accepts an empty name (as \"-\")",
    request: onCreate((b) => { if (b.name === "") b.name = "-"; }) },
  { name: "create-defaults-missing-image", area: "pods.create", rule: "pods.create.image-required", does: "createPod runs ubuntu when `image` is missing",
    request: onCreate((b) => { if (!("image" in b)) b.image = "ubuntu:22.04"; }) },
  { name: "create-clamps-disk", area: "pods.create", rule: "pods.create.disk-minimum", does: "createPod raises a container disk below 1 GB to 1 instead of refusing it",
    request: onCreate((b) => { if (typeof b.disk === "number" && b.disk < 1) b.disk = 1; }) },
  { name: "create-drops-bad-ports", area: "pods.create", rule: "pods.create.port-format", does: "createPod drops ports not written port/protocol",
    request: onCreate((b) => { if (Array.isArray(b.ports)) b.ports = b.ports.filter((p) => typeof p === "string" && PORT.test(p)); }) },
  { name: "create-stringifies-env", area: "pods.create", rule: "pods.create.env-string-values", does: "createPod turns non-string env values into strings",
    request: onCreate((b) => { if (isObject(b.env)) for (const [k, v] of Object.entries(b.env)) if (typeof v !== "string") b.env[k] = JSON.stringify(v) ?? ""; }) },
  { name: "create-ignores-bad-cloud", area: "pods.create", rule: "pods.create.cloud-enum", does: "createPod ignores a cloud other than SECURE or COMMUNITY",
    request: onCreate((b) => { if ("cloud" in b && b.cloud !== "SECURE" && b.cloud !== "COMMUNITY") delete b.cloud; }) },
  { name: "create-gpu-count-zero", area: "pods.create", rule: "pods.create.gpu-count-minimum", does: "createPod takes a GPU count below 1 as 1",
    request: onCreate((b) => { if (isObject(b.gpu) && typeof b.gpu.count === "number" && b.gpu.count < 1) b.gpu.count = 1; }) },
  { name: "create-vcpu-one", area: "pods.create", rule: "pods.create.vcpu-minimum", does: "createPod takes a vCPU count below 2 as 2",
    request: onCreate((b) => { if (isObject(b.cpu) && typeof b.cpu.vcpuCount === "number" && b.cpu.vcpuCount < 2) b.cpu.vcpuCount = 2; }),
    unobservableUnder: (c) => (c.vcpuCounts === "large-only" ? "the flavors offer no 2 vCPUs there (vcpuCounts=large-only): the count it takes instead of one below 2 is refused all the same, as a correct service refuses the body" : undefined) },
  { name: "create-first-network-mount", area: "pods.create", rule: "pods.create.network-max-items", does: "createPod keeps the first of several network mounts",
    request: onCreate((b) => { const m = mounts(b); if (m && Array.isArray(m.network) && m.network.length > 1) m.network = m.network.slice(0, 1); }) },
  { name: "create-small-persistent", area: "pods.create", rule: "pods.create.persistent-size-minimum", does: "createPod grows a persistent mount under 10 GB to 10",
    request: onCreate((b) => { const p = mounts(b)?.persistent; if (isObject(p) && typeof p.size === "number" && p.size < 10) p.size = 10; }) },
  { name: "create-gpu-wins-over-cpu", area: "pods.create", rule: "pods.create.gpu-cpu-exclusive", does: "createPod given both gpu and cpu makes a GPU pod",
    request: onCreate((b) => { if (isObject(b.gpu) && isObject(b.cpu)) delete b.cpu; }) },
  { name: "create-cpu-drops-persistent", area: "pods.create", rule: "pods.create.persistent-on-cpu", does: "createPod drops the persistent mount of a CPU pod instead of refusing it",
    request: onCreate((b) => { const m = mounts(b); if (isObject(b.cpu) && m?.persistent !== undefined) delete m.persistent; }) },
  { name: "create-both-mounts", area: "pods.create", rule: "pods.create.mounts-exclusive", does: "createPod given persistent and network mounts keeps the persistent one",
    request: onCreate((b) => { const m = mounts(b); if (m?.persistent !== undefined && m.network !== undefined) delete m.network; }) },
  { name: "create-empty-network-array", area: "pods.create", rule: "pods.create.network-empty-array", does: "createPod reads `network: []` as no mount",
    request: onCreate((b) => { const m = mounts(b); if (m && Array.isArray(m.network) && m.network.length === 0) delete m.network; }) },
  { name: "create-vcpu-rounds-down", area: "pods.create", rule: "pods.create.vcpu-power-of-two", does: "createPod rounds a vCPU count that is not a power of two down to one",
    request: onCreate((b) => { const c = b.cpu; if (isObject(c) && typeof c.vcpuCount === "number" && c.vcpuCount >= 2 && !isPowerOfTwo(c.vcpuCount)) c.vcpuCount = 2 ** Math.floor(Math.log2(c.vcpuCount)); }) },
  { name: "create-unknown-dc-ignored", area: "pods.create", rule: "pods.create.unknown-data-center", does: "createPod drops preferred data centers it does not know (all of them: any placement)",
    around: (req, at, next) => {
      const out = next(req);
      if (at.op !== "createPod" || out.kind !== "response" || out.response.status !== 400 || !/data cent/i.test(detailOf(out.response))) return out;
      return next(editBody(req, (b) => delete b.dataCenterIds));
    } },
  // createPod: the answer.
  { name: "create-answers-200", area: "pods.create", rule: "pods.create.created-201", does: "createPod answers 200 instead of 201",
    response: (res, _req, at) => (at.op === "createPod" && res.status === 201 ? answer(res, { status: 200 }) : res) },
  { name: "create-starts-running", area: "pods.create", rule: "pods.create.status-provisioning", does: "A created pod is reported RUNNING at once",
    response: (res, _req, at) => (at.op === "createPod" && res.status === 201 ? editAnswer(res, (p) => { p.status = "RUNNING"; }) : res) },
  { name: "create-omits-template", area: "pods.create", rule: "pods.create.response-required-fields", does: "The created pod leaves out `template` when it has none",
    response: (res, _req, at) => (at.op === "createPod" && res.status === 201 ? editAnswer(res, (p) => { if (p.template === null) delete p.template; }) : res) },
  { name: "create-defaults-community", area: "pods.create", rule: "pods.create.default-cloud", does: "A pod created without `cloud` goes to COMMUNITY",
    request: onCreate((b) => { if (!("cloud" in b) && isObject(b.gpu)) b.cloud = "COMMUNITY"; }) },
  { name: "create-defaults-two-gpus", area: "pods.create", rule: "pods.create.default-gpu-count", does: "A GPU pod created without `gpu.count` gets 2 GPUs",
    request: onCreate((b) => { if (isObject(b.gpu) && !("count" in b.gpu)) b.gpu.count = 2; }) },
  { name: "create-reports-global-networking", area: "pods.create", rule: "pods.create.default-global-networking", does: "A pod created without `globalNetworking` is reported with it enabled",
    response: (res, req, at) => (at.op === "createPod" && res.status === 201 && isObject(req.body) && !("globalNetworking" in req.body)
      ? editAnswer(res, (p) => { if (isObject(p.globalNetworking)) p.globalNetworking.enabled = true; }) : res) },
  { name: "cpu-memory-off-by-one", area: "pods.fields", rule: "pods.create.cpu-memory-derived", does: "A CPU pod's memory is reported one GB above vCPUs times the flavor's multiplier",
    response: (res, _req, at) => editPods(res, at, (p) => { if (isObject(p.cpu) && typeof p.cpu.memory === "number") p.cpu.memory += 1; }) },

  // The Pod record and its invariants over time.
  { name: "runtime-kept-when-exited", area: "pods.fields", rule: "pods.runtime-null-unless-running", does: "An EXITED pod still reports runtime metrics",
    response: (res, _req, at) => editPods(res, at, (p) => { if (p.status === "EXITED") p.runtime = { uptime: 0 }; }) },
  { name: "runtime-missing-when-running", area: "pods.fields", rule: "pods.runtime-available-when-running", does: "A RUNNING pod reports runtime null",
    response: (res, _req, at) => editPods(res, at, (p) => { if (p.status === "RUNNING") p.runtime = null; }) },
  { name: "cost-when-exited", area: "pods.fields", rule: "pods.cost-zero-when-stopped", does: "An EXITED pod still costs 0.1 per hour",
    response: (res, _req, at) => editPods(res, at, (p) => { if (p.status === "EXITED") p.cost = 0.1; }) },
  { name: "status-stopped", area: "pods.fields", rule: "pods.status-enum", does: "An EXITED pod is reported STOPPED, which is not a pod state",
    response: (res, _req, at) => editPods(res, at, (p) => { if (p.status === "EXITED") p.status = "STOPPED"; }) },
  { name: "actions-pause", area: "pods.fields", rule: "pods.actions-enum", does: "A RUNNING pod offers a `pause` action",
    response: (res, _req, at) => editPods(res, at, (p) => { if (p.status === "RUNNING" && Array.isArray(p.actions)) p.actions = [...p.actions, "pause"]; }) },
  { name: "actions-no-terminate-when-exited", area: "pods.fields", rule: "pods.actions-match-status", does: "An EXITED pod's actions leave out terminate",
    response: (res, _req, at) => editPods(res, at, (p) => { if (p.status === "EXITED" && Array.isArray(p.actions)) p.actions = p.actions.filter((a) => a !== "terminate"); }) },
  { name: "cpu-pod-carries-gpu", area: "pods.fields", rule: "pods.gpu-xor-cpu", does: "A CPU pod also carries a `gpu` object",
    response: (res, _req, at) => editPods(res, at, (p) => { if (isObject(p.cpu)) p.gpu = { id: "NVIDIA GeForce RTX 4090", count: 1 }; }) },
  { name: "ip-without-global-networking", area: "pods.fields", rule: "pods.global-networking-shape", does: "A pod without global networking carries an `ip`",
    response: (res, _req, at) => editPods(res, at, (p) => { const g = p.globalNetworking; if (isObject(g) && g.enabled === false) g.ip = "10.0.0.1"; }) },
  { name: "internal-dns-host-name", area: "pods.fields", rule: "pods.global-networking-dns-form", does: "internalDns names the pod by its host, not its id",
    response: (res, _req, at) => editPods(res, at, (p) => { const g = p.globalNetworking; if (isObject(g) && typeof g.internalDns === "string") g.internalDns = g.internalDns.replace(String(p.id), "host-7"); }) },
  { name: "ignores-preferred-data-centers", area: "pods.fields", rule: "pods.preferred-data-center", does: "createPod ignores dataCenterIds when placing the pod",
    request: onCreate((b) => { if (Array.isArray(b.dataCenterIds) && !isObject(mounts(b)?.network)) delete b.dataCenterIds; }) },
  { name: "network-pod-wrong-data-center", area: "pods.fields", rule: "pods.network-volume-same-data-center", does: "A pod with a network mount reports a data center other than its volume's",
    response: (res, _req, at) => editPods(res, at, (p) => { const n = isObject(p.mounts) ? p.mounts.network : undefined; if (Array.isArray(n) && n.length > 0 && typeof p.dataCenterId === "string") p.dataCenterId = `${p.dataCenterId}-B`; }) },
  { name: "terminated-comes-back", area: "pods.fields", rule: "pods.transition-legal", does: "A TERMINATED pod is read back EXITED again",
    response: (res, _req, at) => (at.op === "getPod" ? editPods(res, at, (p) => {
      const seen = at.memory.get(p.id as string);
      if (p.status === "TERMINATED") { if (seen === "TERMINATED") p.status = "EXITED"; at.memory.set(p.id as string, "TERMINATED"); }
    }) : res) },

  // PATCH: mount rules and fields.
  { name: "update-clears-mount-when-omitted", area: "pods.update", rule: "pods.update.mounts-omitted-unchanged", does: "A PATCH without `mounts` removes the pod's persistent mount from the record",
    response: (res, req, at) => (at.op === "updatePod" && isObject(req.body) && !("mounts" in req.body)
      ? editPods(res, at, (p) => { if (isObject(p.mounts)) p.mounts = {}; }) : res) },
  { name: "update-empty-network-array", area: "pods.update", rule: "pods.update.network-empty-array", does: "A PATCH with `network: []` is read as no change",
    request: onUpdate((b) => { const m = mounts(b); if (m && Array.isArray(m.network) && m.network.length === 0) delete m.network; }) },
  { name: "update-ignores-kind-change", area: "pods.update", rule: "pods.update.mount-kind-fixed", does: "A PATCH changing the mount kind is answered 200 and the change ignored",
    around: ignoreRefusedMounts(400, /mount kind cannot change/) },
  { name: "update-ignores-volume-change", area: "pods.update", rule: "pods.update.volume-id-immutable", does: "A PATCH changing a network mount's volumeId is answered 200 and ignored",
    around: ignoreRefusedMounts(400, /volumeId is .* cannot change/) },
  { name: "update-partial-mount", area: "pods.update", rule: "pods.update.mount-partial-entry", does: "A PATCH with an incomplete mount entry is answered 200 and the mount left alone",
    around: ignoreRefusedMounts(422, /mounts/) },
  { name: "update-keeps-unknown-property", area: "pods.update", rule: "pods.update.unknown-property", does: "A PATCH drops fields it cannot change instead of refusing them",
    request: onUpdate((b) => { for (const k of Object.keys(b)) if (!UPDATE_FIELDS.has(k)) delete b[k]; }) },
  { name: "update-clamps-disk", area: "pods.update", rule: "pods.update.disk-minimum", does: "A PATCH raises a container disk below 1 GB to 1",
    request: onUpdate((b) => { if (typeof b.disk === "number" && b.disk < 1) b.disk = 1; }) },
  { name: "update-cpu-persistent", area: "pods.update", rule: "pods.update.persistent-on-cpu", does: "A PATCH giving a CPU pod a persistent mount is answered 200 and ignored",
    around: ignoreRefusedMounts(400, /CPU pod/i) },
  { name: "update-empty-name", area: "pods.update", rule: "pods.update.name-min-length", does: "A PATCH with an empty name keeps the old one and answers 200",
    request: onUpdate((b) => { if (b.name === "") delete b.name; }) },

  { name: "update-drops-bad-ports", area: "pods.update", rule: "pods.update.port-format", does: "A PATCH drops ports not written port/protocol",
    request: onUpdate((b) => { if (Array.isArray(b.ports)) b.ports = b.ports.filter((p) => typeof p === "string" && PORT.test(p)); }) },
  { name: "update-stringifies-env", area: "pods.update", rule: "pods.update.env-string-values", does: "A PATCH turns non-string env values into strings",
    request: onUpdate((b) => { if (isObject(b.env)) for (const [k, v] of Object.entries(b.env)) if (typeof v !== "string") b.env[k] = JSON.stringify(v) ?? ""; }) },
  { name: "update-small-persistent", area: "pods.update", rule: "pods.update.persistent-size-minimum", does: "A PATCH grows a persistent mount under 10 GB to 10",
    request: onUpdate((b) => { const p = mounts(b)?.persistent; if (isObject(p) && typeof p.size === "number" && p.size < 10) p.size = 10; }) },
  { name: "update-first-network-mount", area: "pods.update", rule: "pods.update.network-max-items", does: "A PATCH keeps the first of several network mounts",
    request: onUpdate((b) => { const m = mounts(b); if (m && Array.isArray(m.network) && m.network.length > 1) m.network = m.network.slice(0, 1); }) },
  { name: "update-both-mounts", area: "pods.update", rule: "pods.update.mounts-exclusive", does: "A PATCH given persistent and network mounts keeps the persistent one",
    request: onUpdate((b) => { const m = mounts(b); if (m?.persistent !== undefined && m.network !== undefined) delete m.network; }) },

  // Actions.
  { name: "start-running-pod-ok", area: "pods.actions", rule: "pods.action.allowed-in-status", does: "An action not allowed in the pod's status answers 200 with the pod as it is",
    around: (req, at, next) => {
      const out = next(req);
      if (at.op !== "podAction" || out.kind !== "response" || out.response.status !== 409 || /lock/i.test(detailOf(out.response))) return out;
      return next({ ...req, method: "GET", path: `/v2/pods/${at.params.podId}`, body: undefined });
    } },
  { name: "locked-pod-stops-ok", area: "pods.actions", rule: "pods.locked-no-stop", does: "stop or restart of a locked pod answers 200 with the pod as it is",
    around: (req, at, next) => {
      const out = next(req);
      if (at.op !== "podAction" || out.kind !== "response" || out.response.status !== 409 || !/lock/i.test(detailOf(out.response))) return out;
      return next({ ...req, method: "GET", path: `/v2/pods/${at.params.podId}`, body: undefined });
    },
    legalUnderLenient: "\"when true the pod cannot be stopped or reset\": the pod stays as it was (same status, same startedAt, still locked), which is what the sentence states; it names no refusal and no status for a stop of a locked pod (the 409 is docs/choices.md's)" },
  { name: "action-extra-keys-ignored", area: "pods.actions", rule: "pods.action.unknown-property", does: "The action body's keys other than `action` are ignored",
    request: (req, at) => (at.op === "podAction" ? editBody(req, (b) => { for (const k of Object.keys(b)) if (k !== "action") delete b[k]; }) : req) },
  { name: "action-defaults-to-stop", area: "pods.actions", rule: "pods.action.action-required", does: "An action body without `action` stops the pod",
    request: (req, at) => (at.op === "podAction" ? editBody(req, (b) => { if (!("action" in b)) b.action = "stop"; }) : req) },
  { name: "unknown-action-stops", area: "pods.actions", rule: "pods.action.action-enum", does: "An unknown action is taken as stop",
    request: (req, at) => (at.op === "podAction" ? editBody(req, (b) => { if (typeof b.action === "string" && !["start", "stop", "restart", "terminate"].includes(b.action)) b.action = "stop"; }) : req) },
  { name: "terminate-answers-200", area: "pods.actions", rule: "pods.action.response-status", does: "The terminate action answers 200 with an empty object instead of 204",
    response: (res, req, at) => (at.op === "podAction" && res.status === 204 ? { status: 200, headers: { ...res.headers, "content-type": "application/json; charset=utf-8" }, body: {} } : res) },
  { name: "unknown-pod-403", area: "pods.actions", rule: "pods.not-found", does: "An unknown pod id answers 403",
    response: (res, _req, at) => (at.op === "getPod" && res.status === 404 ? answer(res, { status: 403, body: problemBody(403, "forbidden") }) : res) },
  { name: "host-taken-start-ok", area: "pods.actions", rule: "pods.start.host-gpus-taken", does: "start of a stopped pod whose host GPUs were taken answers 200 with the pod as it is",
    around: (req, at, next) => {
      const out = next(req);
      if (at.op !== "podAction" || out.kind !== "response" || out.response.status !== 409 || !/not enough free GPUs/i.test(detailOf(out.response))) return out;
      return next({ ...req, method: "GET", path: `/v2/pods/${at.params.podId}`, body: undefined });
    } },
  { name: "action-body-not-object-ok", area: "pods.actions", rule: "pods.action.field-type", does: "An action body that is not a JSON object answers 200 with the pod as it is",
    around: (req, at, next) => {
      const out = next(req);
      if (at.op !== "podAction" || out.kind !== "response" || out.response.status < 400 || !/must be a JSON object/i.test(detailOf(out.response))) return out;
      return next({ ...req, method: "GET", path: `/v2/pods/${at.params.podId}`, body: undefined });
    } },
  { name: "global-networking-without-ip", area: "pods.fields", rule: "pods.global-networking-enabled-derived", does: "A pod with global networking enabled leaves out its address",
    response: (res, _req, at) => editPods(res, at, (p) => { const g = p.globalNetworking; if (isObject(g) && g.enabled === true) delete g.ip; }) },
  { name: "list-bare-array", area: "pods.fields", rule: "pods.list.shape", does: "listPods answers a bare array",
    response: (res, _req, at) => (at.op === "listPods" && res.status === 200 && isObject(res.body) ? answer(res, { body: res.body.pods }) : res) },
  { name: "delete-answers-body", area: "pods.actions", rule: "pods.delete.no-content", does: "deletePod answers 200 with the pod's id",
    response: (res, _req, at) => (at.op === "deletePod" && res.status === 204 ? { status: 200, headers: { ...res.headers, "content-type": "application/json; charset=utf-8" }, body: { id: at.params.podId } } : res) },
];
