/**
 * Rules of the PATCH of a pod: the five mount update rules of the spec, the mutable fields of
 * choices.md, and the field constraints the pod's record states (the same as on create).
 */
import type { Rule } from "./rule.ts";

const MOUNTS = "Mounts";
const FAILS_VALIDATION =
  "Syntactically valid body that fails validation, such as an incomplete mount entry; individual failures may be listed in `errors`";
const CONTAINER = "Container configuration (shared by templates, pods and serverless endpoints)";

export const podUpdateRules = [
  {
    id: "pods.update.mounts-omitted-unchanged", title: "Omitting `mounts`, or sending `{}`, leaves the pod's mount as it was",
    spec: "Omitting `mounts` or sending an empty object leaves the mount unchanged.",
    section: `${MOUNTS} › mount update rule 1`, source: "spec", severity: "error", kind: "transition",
  },
  {
    id: "pods.update.network-empty-array", title: "An explicit empty `network` array is rejected with 400",
    spec: "An explicit empty `network` array is rejected with 400.",
    section: `${MOUNTS} › mount update rule 2`, source: "spec", severity: "error", kind: "request", status: 400, specStatuses: [400],
  },
  {
    id: "pods.update.mount-kind-fixed", title: "The mount kind chosen at create cannot change (400)",
    spec: "The mount kind is fixed at create: introducing persistent on a network pod, network on a persistent pod, or any mount on a pod created without mounts is rejected with 400.",
    section: `${MOUNTS} › mount update rule 3`, source: "spec", severity: "error", kind: "request", status: 400, specStatuses: [400],
  },
  {
    id: "pods.update.volume-id-immutable", title: "A network mount keeps its `volumeId` (400)",
    spec: "Naming a different `volumeId` on a network mount is rejected with 400.",
    section: `${MOUNTS} › mount update rule 4`, source: "spec", severity: "error", kind: "request", status: 400, specStatuses: [400],
  },
  {
    id: "pods.update.mount-partial-entry", title: "A mount entry in a PATCH is complete (422)",
    spec: "Partial mount entries are not supported: persistent needs `size` and `path`, network needs `volumeId` and `path`; missing fields give 422.",
    section: `${MOUNTS} › mount update rule 5`, source: "spec", severity: "error", kind: "request", status: 422, specStatuses: [422],
  },
  {
    id: "pods.update.unknown-property", title: "A PATCH names only mutable fields",
    spec: "`PATCH /v2/pods/{podId}`; mutable: name, image, args, disk, ports, env, registry, mounts, locked, globalNetworking",
    section: "Pod operations (REST v2, same host as createPod)", source: "choices", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.update.field-type", title: "Every PATCH field has the type the spec gives it, and the body is a JSON object",
    spec: FAILS_VALIDATION, section: "REST v2 (createPod)", source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.update.name-min-length", title: "A pod name has at least 1 character",
    spec: "pod name, CPU flavor id | at least 1 character", section: "Limits", source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.update.disk-minimum", title: "Container disk is an integer of at least 1 GB",
    spec: "container disk | integer, at least 1 GB", section: "Limits", source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.update.port-format", title: "Each port is written `port/protocol`",
    spec: "Each entry formatted `port/protocol`", section: CONTAINER, source: "spec", severity: "error", kind: "request", status: 422,
  },
  {
    id: "pods.update.env-string-values", title: "`env` is an object whose values are strings",
    spec: "env | object, string values | Environment variables as key/value pairs", section: CONTAINER,
    source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.update.persistent-size-minimum", title: "A persistent mount is at least 10 GB",
    spec: "persistent mount size | at least 10 GB", section: "Limits", source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.update.network-max-items", title: "At most one network mount",
    spec: "network | array of NetworkMount, maxItems 1 | Array for forward compatibility", section: MOUNTS,
    source: "spec", severity: "error", kind: "request", status: 422,
  },
  {
    id: "pods.update.mounts-exclusive", title: "At most one of `persistent` and `network` mounts (400)",
    spec: "At most one of `persistent` or `network` may be set (both present gives 400).",
    section: MOUNTS, source: "spec", severity: "error", kind: "request", status: 400, specStatuses: [400],
  },
  {
    id: "pods.update.persistent-on-cpu", title: "A CPU pod cannot be given a persistent mount",
    spec: "CPU pods support container disk and network volumes only; `mounts.persistent` is invalid when `cpu` is set.",
    section: "CreatePodRequest (body of createPod) › rule 4", source: "spec", severity: "error", kind: "request", status: 400, strictStatuses: [400],
  },
  {
    id: "pods.update.global-networking-nvidia", title: "Global networking cannot be turned on for a CPU pod",
    spec: "Default false; requires an NVIDIA GPU and a data center that supports global networking (both enforced upstream); eligible data centers carry a `globalNetwork` field in the data center catalog",
    section: "CreatePodRequest (body of createPod)", source: "spec", severity: "error", kind: "request", status: 400,
    lenient: "Global networking is enforced upstream: a refusal (4xx), or the update applied with global networking left off (globalNetworking.enabled false), both keep the rule; fails only a CPU pod with global networking enabled. Strict requires a refusal.",
  },
] as const satisfies readonly Rule[];
