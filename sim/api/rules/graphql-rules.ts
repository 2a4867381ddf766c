/**
 * Rules of the GraphQL interface: authentication, the envelope, the fields each operation
 * offers and their types, and what podStop and podResume do.
 */
import type { Rule } from "./rule.ts";

const GQL = "GraphQL";
const RECORDS = "GraphQL records";
const STATE = "Pod state through GraphQL";
const POD_RECORD =
  "Pod: `id`, `name`, `imageName`, `env` (list of strings of form `KEY=value`), `machineId`, `machine { podHostId }`, `desiredStatus`, `runtime`.";

export const graphqlRules = [
  {
    id: "graphql.auth-api-key", title: "GraphQL takes the key as the `api_key` query parameter; without a valid key it answers 401",
    spec: "GraphQL: the key is sent in the query parameter `api_key`.", section: "Authentication › rule 2",
    source: "spec", severity: "error", kind: "request", status: 401, specStatuses: [401],
  },
  {
    id: "graphql.auth-bearer", title: "GraphQL also takes the key as `Authorization: Bearer`",
    spec: "The key is accepted as `?api_key=` (the specification) and as `Authorization: Bearer` (newer official clients).",
    section: GQL, source: "choices", severity: "error", kind: "request",
  },
  {
    id: "graphql.envelope", title: "A successful answer is `{data: {...}}` holding the selected fields",
    spec: "Successful responses have the envelope `{data: {...}}` holding the selected fields.", section: GQL, source: "spec", severity: "error", kind: "response",
  },
  {
    id: "graphql.errors-envelope", title: "Errors use the standard `{errors: [{message, extensions: {code}}]}` envelope",
    spec: "Errors use the standard GraphQL `{\"errors\": [{\"message\", \"extensions\": {\"code\"}}]}` envelope; an unauthenticated call answers HTTP 401.",
    section: GQL, source: "choices", severity: "error", kind: "response",
  },
  {
    id: "graphql.pod-find-and-deploy.fields", title: "podFindAndDeployOnDemand offers id, imageName, env, machineId, machine { podHostId }",
    spec: "podFindAndDeployOnDemand | mutation | see below | id, imageName, env, machineId, machine { podHostId }", section: GQL,
    source: "spec", severity: "error", kind: "response",
  },
  {
    id: "graphql.pod-find-and-deploy.input", title: "podFindAndDeployOnDemand accepts the input fields with the types the spec lists",
    spec: "Input of podFindAndDeployOnDemand, with types as used:", section: GQL, source: "spec", severity: "error", kind: "request",
  },
  {
    id: "graphql.pod-find-and-deploy.creates", title: "podFindAndDeployOnDemand creates and deploys a pod",
    spec: "podFindAndDeployOnDemand | Creates and deploys a pod", section: STATE, source: "spec", severity: "error", kind: "transition",
  },
  {
    id: "graphql.allowed-cuda-versions", title: "allowedCudaVersions restricts placement to hosts with one of those CUDA versions",
    spec: "allowedCudaVersions | list of string; restricts placement to machines with those CUDA versions", section: GQL,
    source: "spec", severity: "error", kind: "invariant",
  },
  {
    id: "graphql.pod-resume.fields", title: "podResume offers id, desiredStatus, imageName",
    spec: "podResume | mutation | `{podId, gpuCount, allowedCudaVersions?}` | id, desiredStatus, imageName", section: GQL,
    source: "spec", severity: "error", kind: "response",
  },
  {
    id: "graphql.pod-resume.running", title: "podResume answers desiredStatus RUNNING",
    spec: "Resumes a stopped pod; returns `desiredStatus` RUNNING", section: STATE, source: "spec", severity: "error", kind: "transition",
  },
  {
    id: "graphql.pod-stop.fields", title: "podStop offers id, desiredStatus",
    spec: "podStop | mutation | `{podId}` | id, desiredStatus", section: GQL, source: "spec", severity: "error", kind: "response",
  },
  {
    id: "graphql.pod-stop.exited", title: "podStop releases the GPU, keeps volume data and answers desiredStatus EXITED",
    spec: "Releases the GPU, keeps volume data; returns `desiredStatus` EXITED", section: STATE, source: "spec", severity: "error", kind: "transition",
  },
  {
    id: "graphql.myself-pods.fields", title: "myself { pods } offers id, name, runtime",
    spec: "myself { pods { ... } } | query | none | id, name, runtime", section: GQL, source: "spec", severity: "error", kind: "response",
  },
  {
    id: "graphql.pod.fields", title: "pod(input: {podId}) offers id, name, runtime",
    spec: "pod(input: {podId}) | query | podId | id, name, runtime", section: GQL, source: "spec", severity: "error", kind: "response",
  },
  {
    id: "graphql.gpu-types.fields", title: "gpuTypes offers id, displayName, memoryInGb, secureCloud, communityCloud, lowestPrice",
    spec: "gpuTypes | query | optional `{id}` | id, displayName, memoryInGb, secureCloud, communityCloud, lowestPrice", section: GQL,
    source: "spec", severity: "error", kind: "response",
  },
  {
    id: "graphql.lowest-price.fields", title: "lowestPrice offers uninterruptablePrice, stockStatus, availableGpuCounts",
    spec: "lowestPrice (field of a GPU type) | field | `{gpuCount, secureCloud?}` | uninterruptablePrice, stockStatus, availableGpuCounts",
    section: GQL, source: "spec", severity: "error", kind: "response",
  },
  {
    id: "graphql.pod.types", title: "GraphQL pod fields have the spec's types",
    spec: POD_RECORD, section: RECORDS, source: "spec", severity: "error", kind: "response",
    strictOnly: "the sentence names the pod's fields and states only env's form (graphql.env-key-value judges it); the others' types (id, name, imageName, machineId, machine.podHostId and desiredStatus strings) are the emulator's GraphQL schema",
  },
  {
    id: "graphql.env-key-value", title: "A GraphQL pod's `env` is a list of `KEY=value` strings",
    spec: POD_RECORD, section: RECORDS, source: "spec", severity: "error", kind: "response",
  },
  {
    id: "graphql.runtime.types", title: "GraphQL runtime fields have the spec's shape",
    spec: "`runtime`: `uptimeInSeconds`; `ports` list of {ip, isIpPublic, privatePort, publicPort, type}; `gpus` list of {id, gpuUtilPercent, memoryUtilPercent}; `container` {cpuPercent, memoryPercent}.",
    section: RECORDS, source: "spec", severity: "error", kind: "response",
    lenient: "judges the shape the sentence states (ports and gpus lists of objects, container an object); the members' types (uptimeInSeconds an integer, the ports' numbers, the percentages numbers), which it does not state, only under --profile strict",
  },
  {
    id: "graphql.gpu-type.types", title: "GPU type fields have the spec's types",
    spec: "GPU type: `id`, `displayName`, `memoryInGb`, `secureCloud` (boolean), `communityCloud` (boolean), `lowestPrice` {uninterruptablePrice (number), stockStatus, availableGpuCounts (list of integer)}.",
    section: RECORDS, source: "spec", severity: "error", kind: "response",
    lenient: "judges the types the sentence states (secureCloud and communityCloud booleans, uninterruptablePrice a number, availableGpuCounts a list of integers); id, displayName and memoryInGb, named without a type, only under --profile strict",
  },
  {
    id: "graphql.stock-status-enum", title: "stockStatus is High, Medium, Low or None",
    spec: "`stockStatus` values: `High`, `Medium`, `Low`, `None`; `Low` means very few GPUs are available.", section: RECORDS,
    source: "spec", severity: "error", kind: "response",
  },
  {
    id: "graphql.client-fields", title: "The fields official clients select are served too",
    spec: "Official clients also select `costPerHr`, `desiredStatus`, `lastStatusChange`, `gpuCount`, `vcpuCount`, `memoryInGb`, `containerDiskInGb`, `volumeInGb`, `uptimeSeconds`, `podTerminate(input: {podId})`, `dataCenters { id name location gpuAvailability { gpuTypeId displayName stockStatus } }` and `lowestPrice { minimumBidPrice uninterruptablePrice }`; supporting them makes existing scripts work.",
    section: GQL, source: "choices", severity: "warning", kind: "response",
  },
] as const satisfies readonly Rule[];
