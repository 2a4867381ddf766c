/**
 * Rules of createPod (`POST /v2/pods`): the body's schema, the handler's cross-field checks,
 * the references it resolves, and what the created pod must look like.
 *
 * Statuses where the spec is silent follow the emulator's choice (what the real platform's REST
 * framework does): a schema failure is 422, a handler check or an unknown reference is 400.
 */
import type { Rule } from "./rule.ts";

const BODY = "CreatePodRequest (body of createPod)";
const FAILS_VALIDATION =
  "Syntactically valid body that fails validation, such as an incomplete mount entry; individual failures may be listed in `errors`";
const GLOBAL_NETWORKING =
  "Default false; requires an NVIDIA GPU and a data center that supports global networking (both enforced upstream); eligible data centers carry a `globalNetwork` field in the data center catalog";
const VOLUME_ID = "`volumeId` string, required, ID of an existing network volume in the same data center as the pod, immutable after create";
const VCPU_VALID = "Must be valid for the flavor and a power of two";

const GLOBAL_NETWORKING_LENIENT =
  "The spec says global networking is \"enforced upstream\" and that `enabled` is derived from an assigned address: a refusal (4xx), or the pod created with global networking left off (globalNetworking.enabled false, no ip), both keep it, and so does a pod placed, with it, in a data center whose catalog entry says it is eligible (dataCenterIds are only preferred); fails only a pod with global networking enabled where it cannot be honoured. Strict requires a refusal.";

export const podCreateRules = [
  // Schema: 422 with each failure in `errors`.
  {
    id: "pods.create.unknown-property", title: "createPod rejects properties the body schema does not list, at every level",
    spec: "Properties not listed in the body schema are rejected; `gpu` and `cpu` objects also reject unlisted properties.",
    section: `${BODY} › rule 1`, source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.create.field-type", title: "Every createPod field has the type the spec gives it, and the body is a JSON object",
    spec: FAILS_VALIDATION, section: "REST v2 (createPod)", source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.create.name-required", title: "createPod requires `name`",
    spec: "name | string, minLength 1 | yes", section: BODY, source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.create.name-min-length", title: "A pod name has at least 1 character",
    spec: "pod name, CPU flavor id | at least 1 character", section: "Limits", source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.create.image-required", title: "createPod requires `image`",
    spec: "image | string | yes", section: BODY, source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.create.disk-minimum", title: "Container disk is an integer of at least 1 GB",
    spec: "container disk | integer, at least 1 GB", section: "Limits", source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.create.port-format", title: "Each port is written `port/protocol`",
    spec: "Each entry formatted `port/protocol`", section: "Container configuration (shared by templates, pods and serverless endpoints)",
    source: "spec", severity: "error", kind: "request", status: 422,
  },
  {
    id: "pods.create.env-string-values", title: "`env` is an object whose values are strings",
    spec: "env | object, string values | Environment variables as key/value pairs",
    section: "Container configuration (shared by templates, pods and serverless endpoints)",
    source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.create.cloud-enum", title: "`cloud` is SECURE or COMMUNITY",
    spec: "`SECURE` (provider-owned datacenter hardware), `COMMUNITY` (community-hosted hardware).",
    section: "Cloud (enum)", source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.create.gpu-id-required", title: "`gpu` requires `id`",
    spec: "id | string | yes | GPU type identifier", section: "GpuConfig", source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.create.gpu-count-minimum", title: "GPU count is an integer of at least 1",
    spec: "GPU count | integer, at least 1, default 1", section: "Limits", source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.create.cpu-id-required", title: "`cpu` requires `id`",
    spec: "id | string, minLength 1 | yes | CPU flavor identifier", section: "CPU configuration", source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.create.cpu-id-min-length", title: "A CPU flavor id has at least 1 character",
    spec: "pod name, CPU flavor id | at least 1 character", section: "Limits", source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.create.vcpu-count-required", title: "`cpu` requires `vcpuCount`",
    spec: "vcpuCount | integer, minimum 2 | yes", section: "CPU configuration", source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.create.vcpu-minimum", title: "vCPU count is an integer of at least 2",
    spec: "vCPU count | integer, at least 2, power of two", section: "Limits", source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.create.network-max-items", title: "At most one network mount",
    spec: "network | array of NetworkMount, maxItems 1 | Array for forward compatibility", section: "Mounts",
    source: "spec", severity: "error", kind: "request", status: 422,
  },
  {
    id: "pods.create.persistent-size-minimum", title: "A persistent mount is at least 10 GB",
    spec: "persistent mount size | at least 10 GB", section: "Limits", source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.create.mount-entry-incomplete", title: "A mount entry carries all its required fields (422)",
    spec: "Syntactically valid body that fails validation, such as an incomplete mount entry",
    section: "REST v2 (createPod)", source: "spec", severity: "error", kind: "request", status: 422, specStatuses: [422],
  },
  // Handler checks: 400.
  {
    id: "pods.create.gpu-cpu-exclusive", title: "Exactly one of `gpu` and `cpu` is set",
    spec: "Exactly one of `gpu` or `cpu` must be set; this is checked by the handler.",
    section: `${BODY} › rule 2`, source: "spec", severity: "error", kind: "request", status: 400, strictStatuses: [400],
  },
  {
    id: "pods.create.persistent-on-cpu", title: "A CPU pod cannot have a persistent mount",
    spec: "CPU pods support container disk and network volumes only; `mounts.persistent` is invalid when `cpu` is set.",
    section: `${BODY} › rule 4`, source: "spec", severity: "error", kind: "request", status: 400, strictStatuses: [400],
  },
  {
    id: "pods.create.mounts-exclusive", title: "At most one of `persistent` and `network` mounts (400)",
    spec: "At most one of `persistent` or `network` may be set (both present gives 400).",
    section: "Mounts", source: "spec", severity: "error", kind: "request", status: 400, specStatuses: [400],
  },
  {
    // The spec states this rule for the PATCH of a pod, but its createPod error table lists
    // "an empty network array" among the 400 conditions too; whether create must refuse it is
    // therefore not settled, hence a warning.
    id: "pods.create.network-empty-array", title: "An explicit empty `network` array is refused on create too (400)",
    spec: "Malformed request or conflict with rules, such as setting both `persistent` and `network` mounts, an empty `network` array, a changed mount kind or a changed `volumeId`",
    section: "REST v2 (createPod)", source: "spec", severity: "warning", kind: "request", status: 400, specStatuses: [400],
  },
  {
    id: "pods.create.vcpu-power-of-two", title: "vCPU count is a power of two",
    spec: VCPU_VALID, section: "CPU configuration", source: "spec", severity: "error", kind: "request", status: 400, strictStatuses: [400],
  },
  {
    id: "pods.create.vcpu-valid-for-flavor", title: "vCPU count is one the CPU flavor offers",
    spec: VCPU_VALID, section: "CPU configuration", source: "spec", severity: "error", kind: "request", status: 400, strictStatuses: [400],
  },
  {
    id: "pods.create.unknown-gpu-type", title: "`gpu.id` names a GPU type of the catalog",
    spec: "id | string | yes | GPU type identifier", section: "GpuConfig", source: "spec", severity: "error", kind: "request", status: 400, strictStatuses: [400],
  },
  {
    id: "pods.create.unknown-cpu-flavor", title: "`cpu.id` names a CPU flavor of the catalog",
    spec: "CPU flavor identifier, as returned by `GET /v2/catalog/cpus`", section: "CPU configuration",
    source: "spec", severity: "error", kind: "request", status: 400, strictStatuses: [400],
  },
  {
    id: "pods.create.unknown-network-volume", title: "A network mount names an existing network volume",
    spec: VOLUME_ID, section: "Mounts", source: "spec", severity: "error", kind: "request", status: 400, strictStatuses: [400],
  },
  {
    id: "pods.create.unknown-registry", title: "`registry` names one of the caller's container registry credentials",
    spec: "registry | string or null | Container registry credential ID, for private images",
    section: "Container configuration (shared by templates, pods and serverless endpoints)",
    source: "spec", severity: "error", kind: "request", status: 400, strictStatuses: [400],
    strictOnly: "that createPod refuses a credential id the caller does not have (it may fail the image pull later instead)",
  },
  {
    id: "pods.create.network-volume-data-center", title: "The network volume lies in one of the requested data centers",
    spec: VOLUME_ID, section: "Mounts", source: "spec", severity: "error", kind: "request", status: 400, strictStatuses: [400],
    lenient: "The volume must be in the pod's data center; `dataCenterIds` are only preferred: a refusal (4xx), or the pod placed in the volume's data center, keeps it; fails only a pod placed elsewhere. Strict requires a refusal.",
  },
  {
    id: "pods.create.unknown-data-center", title: "Each preferred data center exists",
    spec: "dataCenterIds | array of string | no | Preferred data centers; omit or send an empty array to let the scheduler choose",
    section: BODY, source: "spec", severity: "error", kind: "request", status: 400,
    strictOnly: "that an unknown id among the preferred data centers is refused (they are preferences; the scheduler may place the pod elsewhere)",
  },
  {
    id: "pods.create.global-networking-nvidia", title: "Global networking needs an NVIDIA GPU pod",
    spec: GLOBAL_NETWORKING, section: BODY, source: "spec", severity: "error", kind: "request", status: 400,
    lenient: GLOBAL_NETWORKING_LENIENT,
  },
  {
    id: "pods.create.global-networking-data-center", title: "Global networking needs a data center that supports it",
    spec: GLOBAL_NETWORKING, section: BODY, source: "spec", severity: "error", kind: "request", status: 400,
    lenient: GLOBAL_NETWORKING_LENIENT,
  },
  // What createPod answers.
  {
    id: "pods.create.created-201", title: "An accepted createPod answers 201 with the pod",
    spec: "createPod accepted | valid request | PROVISIONING | Response 201 carries the pod; provisioning continues asynchronously",
    section: "Pod status (REST)", source: "spec", severity: "error", kind: "response",
    lenient: "A valid body is one within the target's own catalog (its GPU types, clouds and counts; count 1 where it states no maximum): each must answer 201 with the pod. A refusal that names capacity or availability (409, 503, \"at most 2 ... are available\") is not a verdict; any other refusal of a valid body fails.",
  },
  {
    id: "pods.create.status-provisioning", title: "A created pod starts in PROVISIONING",
    spec: "Each created pod starts in `PROVISIONING`.", section: "REST v2: create a pod", source: "spec", severity: "error", kind: "response",
  },
  {
    id: "pods.create.response-required-fields", title: "The created pod carries every required field",
    spec: "Required in the response: id, name, status, actions, image, args, disk, mounts, ports, env, registry, cloud, dataCenterId, template, cost, locked, runtime, createdAt, startedAt, globalNetworking.",
    section: "Pod (response of createPod)", source: "spec", severity: "error", kind: "response",
  },
  {
    id: "pods.create.default-cloud", title: "`cloud` defaults to SECURE",
    spec: "cloud | Cloud | no | Default `SECURE`", section: BODY, source: "spec", severity: "error", kind: "response",
  },
  {
    id: "pods.create.default-gpu-count", title: "`gpu.count` defaults to 1",
    spec: "count | integer, minimum 1 | no | Default 1", section: "GpuConfig", source: "spec", severity: "error", kind: "response",
  },
  {
    id: "pods.create.default-global-networking", title: "`globalNetworking` defaults to false",
    spec: GLOBAL_NETWORKING, section: BODY, source: "spec", severity: "error", kind: "response",
  },
  {
    id: "pods.create.cpu-memory-derived", title: "A CPU pod's memory is vCPU count times the flavor's RAM multiplier; the client does not send it",
    spec: "For CPU pods, memory is derived by the service from the selected flavor's RAM multiplier; the client sends only the flavor and the vCPU count.",
    section: `${BODY} › rule 3`, source: "spec", severity: "error", kind: "response",
  },
] as const satisfies readonly Rule[];
