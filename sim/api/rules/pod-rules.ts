/**
 * Rules of pods beyond create and update: the invariants every pod record keeps, the legal
 * status moves, and the other pod operations choices.md documents (list, get, delete, actions).
 */
import type { Rule } from "./rule.ts";

const POD = "Pod (response of createPod)";
const OPS = "Pod operations (REST v2, same host as createPod)";
const STATES =
  "States: `PROVISIONING` (being allocated), `STARTING` (container starting), `RUNNING` (container healthy), `EXITED` (container exited, stopped), `ERROR` (unrecoverable error), `TERMINATED` (permanently deleted).";

export const podRules = [
  // Invariants of every pod record.
  {
    id: "pods.runtime-null-unless-running", title: "`runtime` is null whenever the pod is not RUNNING",
    spec: "Required; live utilization; null when the pod is not RUNNING", section: POD, source: "spec", severity: "error", kind: "invariant",
  },
  {
    id: "pods.runtime-available-when-running", title: "A RUNNING pod reports runtime metrics",
    spec: "container becomes healthy | automatic | RUNNING | runtime metrics become available",
    section: "Pod status (REST)", source: "spec", severity: "warning", kind: "invariant",
  },
  {
    id: "pods.cost-zero-when-stopped", title: "`cost` is 0 when the pod is EXITED or TERMINATED",
    spec: "Required; current cost in USD per hour; 0.0 when EXITED or TERMINATED", section: POD, source: "spec", severity: "error", kind: "invariant",
  },
  {
    id: "pods.status-enum", title: "`status` is one of the six pod states",
    spec: STATES, section: "Pod status (REST)", source: "spec", severity: "error", kind: "response",
  },
  {
    id: "pods.actions-enum", title: "`actions` lists PodAction values only",
    spec: "Required; the state transitions valid for the current status. PodAction values: `start`, `stop`, `restart`, `terminate`",
    section: POD, source: "spec", severity: "error", kind: "response",
  },
  {
    id: "pods.actions-match-status", title: "`actions` is exactly the list docs/choices.md gives for the status",
    spec: "Allowed actions by status (this is also the Pod's `actions` list):", section: OPS, source: "choices", severity: "error", kind: "invariant",
  },
  {
    id: "pods.gpu-xor-cpu", title: "A GPU pod carries `gpu` and no `cpu`; a CPU pod `cpu` and no `gpu`",
    spec: "Present on GPU pods; omitted on CPU pods", section: POD, source: "spec", severity: "error", kind: "invariant",
  },
  {
    id: "pods.global-networking-shape", title: "`ip` and `internalDns` appear only when global networking is enabled",
    spec: "ip | string | Present only when enabled", section: "PodGlobalNetworking", source: "spec", severity: "error", kind: "invariant",
  },
  {
    id: "pods.global-networking-enabled-derived", title: "`enabled` is true exactly when the pod has a global-network address",
    spec: "Derived from whether the pod has an assigned global-network address", section: "PodGlobalNetworking", source: "spec", severity: "error", kind: "invariant",
  },
  {
    id: "pods.global-networking-dns-form", title: "`internalDns` is `<pod_id>.<internal_domain>`",
    spec: "Form `<pod_id>.<internal_domain>`; reachable from other globally networked pods of the same account; present only when enabled",
    section: "PodGlobalNetworking", source: "spec", severity: "error", kind: "invariant",
  },
  {
    id: "pods.network-volume-same-data-center", title: "A pod with a network mount runs in the volume's data center",
    spec: "`volumeId` string, required, ID of an existing network volume in the same data center as the pod, immutable after create",
    section: "Mounts", source: "spec", severity: "error", kind: "invariant",
  },
  {
    id: "pods.preferred-data-center", title: "A pod with preferred data centers is placed in one of them",
    spec: "dataCenterIds | array of string | no | Preferred data centers; omit or send an empty array to let the scheduler choose",
    section: "CreatePodRequest (body of createPod)", source: "spec", severity: "warning", kind: "invariant",
    strictOnly: "that the pod is placed in one of the preferred data centers (it calls them preferred and states no restriction)",
  },
  // Status moves.
  {
    id: "pods.transition-legal", title: "A pod moves PROVISIONING → STARTING → RUNNING on its own, and never leaves TERMINATED",
    spec: STATES, section: "Pod status (REST)", source: "spec", severity: "error", kind: "transition",
  },
  {
    id: "pods.action.allowed-in-status", title: "An action not allowed in the pod's status answers 409",
    spec: "An action not allowed in the current status gives 409 (problem+json).", section: OPS,
    source: "choices", severity: "error", kind: "transition", status: 409, strictStatuses: [409],
  },
  {
    id: "pods.locked-no-stop", title: "A locked pod cannot be stopped or restarted",
    spec: "Required; when true the pod cannot be stopped or reset", section: POD, source: "spec", severity: "error", kind: "transition", status: 409,
  },
  {
    id: "pods.start.host-gpus-taken", title: "Starting a stopped pod whose host GPUs were taken answers 409",
    spec: "A stopped pod stays tied to its host: starting it again fails (409, \"not enough free GPUs on the host machine\") when that host's GPUs were taken meanwhile.",
    section: OPS, source: "choices", severity: "error", kind: "transition", status: 409, strictStatuses: [409],
  },
  // The other pod operations (choices.md).
  {
    id: "pods.action.unknown-property", title: "The action body is `{action}` and nothing else",
    spec: "`POST /v2/pods/{podId}/action` with body `{\"action\": \"start\" | \"stop\" | \"restart\" | \"terminate\"}`, no other keys",
    section: OPS, source: "choices", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.action.action-required", title: "The action body names an `action`",
    spec: "`POST /v2/pods/{podId}/action` with body `{\"action\": \"start\" | \"stop\" | \"restart\" | \"terminate\"}`, no other keys",
    section: OPS, source: "choices", severity: "error", kind: "request", status: 422, strictStatuses: [422],
  },
  {
    id: "pods.action.action-enum", title: "`action` is start, stop, restart or terminate",
    spec: "PodAction values: `start`, `stop`, `restart`, `terminate`", section: POD, source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
    strictOnly: "what the pod actions take or refuse: it lists the values of the Pod's `actions`, and the actions' \"methods, paths and payloads are not shown\" (the `{action}` body is docs/choices.md's)",
  },
  {
    id: "pods.action.field-type", title: "The action body is a JSON object",
    spec: "Syntactically valid body that fails validation, such as an incomplete mount entry; individual failures may be listed in `errors`",
    section: "REST v2 (createPod)", source: "spec", severity: "error", kind: "request", status: 422, strictStatuses: [422],
    strictOnly: "the pod actions' payload (their \"methods, paths and payloads are not shown\"; the sentence is createPod's 422): a service may take the action in another JSON form",
  },
  {
    id: "pods.action.response-status", title: "start, stop and restart answer 200 with the pod; terminate answers 204",
    spec: "200 Pod (start, stop, restart); 204 (terminate)", section: OPS, source: "choices", severity: "error", kind: "response",
  },
  {
    id: "pods.not-found", title: "An unknown pod id answers 404",
    spec: "An unknown pod id gives 404.", section: OPS, source: "choices", severity: "error", kind: "request", status: 404, strictStatuses: [404],
  },
  {
    id: "pods.list.shape", title: "listPods answers `{pods: [Pod, ...]}`",
    spec: "200 `{\"pods\": [Pod, ...]}`", section: OPS, source: "choices", severity: "error", kind: "response",
  },
  {
    id: "pods.delete.no-content", title: "deletePod answers 204 without a body and the pod becomes TERMINATED",
    spec: "204, no body (pod becomes TERMINATED)", section: OPS, source: "choices", severity: "error", kind: "response",
  },
] as const satisfies readonly Rule[];
