/**
 * The route table of the whole platform, transport-free: REST v2 pods and catalog, the other
 * resource groups, GraphQL, and the job endpoints. The emulator uses it for routing, 404 vs 405
 * (with `Allow`), per-route body limits and the OpenAPI document; sim/api dispatches on `op`.
 */
import { RESERVED_ENDPOINT_IDS } from "../catalog/index.ts";
import type { HttpMethod } from "./types.ts";

export const MiB = 1024 * 1024;
/** "run payload: 10 MB maximum"; the emulator reads MB as MiB (the lenient profile accepts either). */
export const RUN_BODY_LIMIT = 10 * MiB;
/** "runsync payload: 20 MB maximum". */
export const RUNSYNC_BODY_LIMIT = 20 * MiB;
/** Everything else: pods, GraphQL, control. */
export const DEFAULT_BODY_LIMIT = 1 * MiB;

export type AuthScheme = "bearer" | "graphql" | "none";

export interface RouteDef {
  readonly op: string;
  readonly method: HttpMethod;
  /** Path pattern with `:param` segments. */
  readonly pattern: string;
  readonly auth: AuthScheme;
  /** Whether the operation changes state (a read-only key gets 403). */
  readonly write: boolean;
  readonly bodyLimit: number;
  readonly tag: "Pods" | "Catalog" | "Network Volumes" | "Templates" | "Registries" | "Billing" | "Serverless" | "Account" | "Sandboxes" | "GraphQL" | "Meta";
  readonly summary: string;
}

function route(
  op: string,
  method: HttpMethod,
  pattern: string,
  tag: RouteDef["tag"],
  summary: string,
  extra: Partial<Pick<RouteDef, "auth" | "write" | "bodyLimit">> = {},
): RouteDef {
  const write = extra.write ?? (method !== "GET" && method !== "HEAD");
  return { op, method, pattern, tag, summary, auth: extra.auth ?? "bearer", write, bodyLimit: extra.bodyLimit ?? DEFAULT_BODY_LIMIT };
}

/**
 * First path segments that are never a job endpoint id: the emulator serves the REST host and
 * the serverless host on one port (choices.md). The catalog refuses these ids, so the two
 * lists are one.
 */
export const RESERVED_SEGMENTS: ReadonlySet<string> = new Set(RESERVED_ENDPOINT_IDS);

export const routes: readonly RouteDef[] = [
  route("listPods", "GET", "/v2/pods", "Pods", "List the account's pods"),
  route("createPod", "POST", "/v2/pods", "Pods", "Create a pod"),
  route("getPod", "GET", "/v2/pods/:podId", "Pods", "Read one pod"),
  route("updatePod", "PATCH", "/v2/pods/:podId", "Pods", "Update a pod"),
  route("deletePod", "DELETE", "/v2/pods/:podId", "Pods", "Terminate a pod"),
  route("podAction", "POST", "/v2/pods/:podId/action", "Pods", "Start, stop, restart or terminate a pod"),
  route("listCpuFlavors", "GET", "/v2/catalog/cpus", "Catalog", "CPU flavors"),
  route("listDataCenters", "GET", "/v2/catalog/datacenters", "Catalog", "Data centers"),
  route("listGpuTypes", "GET", "/v2/catalog/gpus", "Catalog", "GPU types with prices and stock"),
  route("listNetworkVolumes", "GET", "/v2/networkvolumes", "Network Volumes", "The account's network volumes"),
  route("getNetworkVolume", "GET", "/v2/networkvolumes/:id", "Network Volumes", "One network volume"),
  route("listTemplates", "GET", "/v2/templates", "Templates", "Templates"),
  route("getTemplate", "GET", "/v2/templates/:id", "Templates", "One template"),
  route("listRegistries", "GET", "/v2/containerregistryauth", "Registries", "Container registry credentials"),
  route("getRegistry", "GET", "/v2/containerregistryauth/:id", "Registries", "One registry credential"),
  route("listEndpoints", "GET", "/v2/endpoints", "Serverless", "The account's serverless endpoints"),
  route("getEndpoint", "GET", "/v2/endpoints/:id", "Serverless", "One serverless endpoint"),
  // Create, update, delete (issue 14). The /v2/serverless, /v2/registries and /v2/account paths are
  // the ones newer official Python clients call; they serve the same operations.
  route("createNetworkVolume", "POST", "/v2/networkvolumes", "Network Volumes", "Create a network volume"),
  route("updateNetworkVolume", "PATCH", "/v2/networkvolumes/:id", "Network Volumes", "Rename or grow a network volume"),
  route("deleteNetworkVolume", "DELETE", "/v2/networkvolumes/:id", "Network Volumes", "Delete a network volume no pod mounts"),
  route("createTemplate", "POST", "/v2/templates", "Templates", "Create a template"),
  route("updateTemplate", "PATCH", "/v2/templates/:id", "Templates", "Update a template of yours"),
  route("deleteTemplate", "DELETE", "/v2/templates/:id", "Templates", "Delete a template no endpoint uses"),
  route("createRegistry", "POST", "/v2/containerregistryauth", "Registries", "Create a container registry credential"),
  route("updateRegistry", "PATCH", "/v2/containerregistryauth/:id", "Registries", "Change a credential's username and password"),
  route("deleteRegistry", "DELETE", "/v2/containerregistryauth/:id", "Registries", "Delete a credential no template uses"),
  route("createEndpoint", "POST", "/v2/endpoints", "Serverless", "Create a serverless endpoint (jobs can be sent at once)"),
  route("updateEndpoint", "PATCH", "/v2/endpoints/:id", "Serverless", "Update a serverless endpoint"),
  route("deleteEndpoint", "DELETE", "/v2/endpoints/:id", "Serverless", "Delete a serverless endpoint; its queued and running jobs are cancelled"),
  route("listServerlessEndpoints", "GET", "/v2/serverless", "Serverless", "The account's serverless endpoints (same as GET /v2/endpoints)"),
  route("createServerlessEndpoint", "POST", "/v2/serverless", "Serverless", "Create a serverless endpoint (same as POST /v2/endpoints)"),
  route("getServerlessEndpoint", "GET", "/v2/serverless/:id", "Serverless", "One serverless endpoint (same as GET /v2/endpoints/{id})"),
  route("updateServerlessEndpoint", "PATCH", "/v2/serverless/:id", "Serverless", "Update a serverless endpoint (same as PATCH /v2/endpoints/{id})"),
  route("deleteServerlessEndpoint", "DELETE", "/v2/serverless/:id", "Serverless", "Delete a serverless endpoint (same as DELETE /v2/endpoints/{id})"),
  route("listRegistryCredentials", "GET", "/v2/registries", "Registries", "Container registry credentials (same as GET /v2/containerregistryauth)"),
  route("createRegistryCredential", "POST", "/v2/registries", "Registries", "Create a credential (same as POST /v2/containerregistryauth)"),
  route("getRegistryCredential", "GET", "/v2/registries/:id", "Registries", "One credential (same as GET /v2/containerregistryauth/{id})"),
  route("updateRegistryCredential", "PATCH", "/v2/registries/:id", "Registries", "Change a credential (same as PATCH /v2/containerregistryauth/{id})"),
  route("deleteRegistryCredential", "DELETE", "/v2/registries/:id", "Registries", "Delete a credential (same as DELETE /v2/containerregistryauth/{id})"),
  // The newest apps client's spelling of the network-volume paths; its create body names `dataCenter`.
  route("listVolumes", "GET", "/v2/network-volumes", "Network Volumes", "The account's network volumes (same as GET /v2/networkvolumes)"),
  route("createVolume", "POST", "/v2/network-volumes", "Network Volumes", "Create a network volume: {name, size, dataCenter}"),
  route("getVolume", "GET", "/v2/network-volumes/:id", "Network Volumes", "One network volume (same as GET /v2/networkvolumes/{id})"),
  route("updateVolume", "PATCH", "/v2/network-volumes/:id", "Network Volumes", "Rename or grow a network volume (same as PATCH /v2/networkvolumes/{id})"),
  route("deleteVolume", "DELETE", "/v2/network-volumes/:id", "Network Volumes", "Delete a network volume (same as DELETE /v2/networkvolumes/{id})"),
  // The REST-era Python client's logs and workers (text/event-stream for logs).
  route("podLogs", "GET", "/v2/pods/:podId/logs", "Pods", "A pod's log lines as Server-Sent Events (tail, since, source)"),
  route("listEndpointWorkers", "GET", "/v2/endpoints/:id/workers", "Serverless", "An endpoint's workers now"),
  route("listServerlessWorkers", "GET", "/v2/serverless/:id/workers", "Serverless", "An endpoint's workers now (same as GET /v2/endpoints/{id}/workers)"),
  route("workerLogs", "GET", "/v2/serverless/:id/workers/:workerId/logs", "Serverless", "A worker's log lines as Server-Sent Events (tail, since, source)"),
  // `runpod.apps.logs`: the host API's pod logs (hapi.runpod.net; RUNPOD_HAPI_URL points here).
  route("hostPodLogs", "GET", "/v1/pod/:podId/logs", "Pods", "A pod's logs as the host API serves them: a snapshot {container, system}, or Server-Sent Events with stream=true (type, tail, since)"),
  // The REST v1 pods of the JavaScript SDK repository's `Pod` class: a translation onto the v2 pod operations.
  route("listPodsV1", "GET", "/v1/pods", "Pods", "The account's pods in the v1 shape (same pods as GET /v2/pods)"),
  route("createPodV1", "POST", "/v1/pods", "Pods", "Create a pod from v1 PodOptions (translated to a v2 CreatePodRequest)"),
  route("getPodV1", "GET", "/v1/pods/:podId", "Pods", "One pod in the v1 shape"),
  route("deletePodV1", "DELETE", "/v1/pods/:podId", "Pods", "Terminate a pod (same as DELETE /v2/pods/{podId})"),
  route("stopPodV1", "POST", "/v1/pods/:podId/stop", "Pods", "Stop a pod (any body is ignored)"),
  route("startPodV1", "POST", "/v1/pods/:podId/start", "Pods", "Start a stopped pod (any body is ignored)"),
  route("restartPodV1", "POST", "/v1/pods/:podId/restart", "Pods", "Restart a pod (any body is ignored)"),
  route("getSshKeys", "GET", "/v2/account/ssh-keys", "Account", "The account's SSH public keys"),
  route("putSshKeys", "PUT", "/v2/account/ssh-keys", "Account", "Replace the account's SSH public keys"),
  route("getGpuType", "GET", "/v2/catalog/gpus/:id", "Catalog", "One GPU type with its price and stock"),
  route("getCpuFlavor", "GET", "/v2/catalog/cpus/:id", "Catalog", "One CPU flavor with its price and stock"),
  route("billingPods", "GET", "/v2/billing/pods", "Billing", "Pod spend by hour"),
  route("billingEndpoints", "GET", "/v2/billing/endpoints", "Billing", "Endpoint spend by hour"),
  route("listSandboxes", "GET", "/v2/sandboxes", "Sandboxes", "The account's CPU sandboxes (state, labels=key=value)"),
  route("createSandbox", "POST", "/v2/sandboxes", "Sandboxes", "Create a CPU sandbox (its record and lifecycle; no container runs)"),
  route("getSandbox", "GET", "/v2/sandboxes/:id", "Sandboxes", "One sandbox"),
  route("updateSandbox", "PATCH", "/v2/sandboxes/:id", "Sandboxes", "Change a sandbox's idle timeout or maximum lifetime"),
  route("deleteSandbox", "DELETE", "/v2/sandboxes/:id", "Sandboxes", "Terminate a sandbox (its record stays readable)"),
  route("extendSandbox", "POST", "/v2/sandboxes/:id/extend", "Sandboxes", "Set a sandbox's total lifetime"),
  route("execSandbox", "POST", "/v2/sandboxes/:id/exec", "Sandboxes", "Run a command: never run by the emulator (the answer says so)"),
  route("sandboxLogs", "GET", "/v2/sandboxes/:id/logs", "Sandboxes", "A sandbox's log lines as Server-Sent Events (tail, since, source)"),
  route("openapi", "GET", "/openapi.json", "Meta", "This OpenAPI 3.1 document", { auth: "none" }),
  route("graphql", "POST", "/graphql", "GraphQL", "GraphQL queries and mutations", { auth: "graphql", write: false }),
  route("graphqlGet", "GET", "/graphql", "GraphQL", "GraphQL queries over GET", { auth: "graphql", write: false }),
  route("jobRun", "POST", "/v2/:endpointId/run", "Serverless", "Queue a job", { bodyLimit: RUN_BODY_LIMIT }),
  route("jobRunsync", "POST", "/v2/:endpointId/runsync", "Serverless", "Run a job and wait for its result", { bodyLimit: RUNSYNC_BODY_LIMIT }),
  route("jobStatus", "GET", "/v2/:endpointId/status/:jobId", "Serverless", "A job's status"),
  route("jobStatusSync", "GET", "/v2/:endpointId/status-sync/:jobId", "Serverless", "A job's status, waiting for completion"),
  route("jobStream", "GET", "/v2/:endpointId/stream/:jobId", "Serverless", "A job's new stream chunks"),
  route("jobCancel", "POST", "/v2/:endpointId/cancel/:jobId", "Serverless", "Cancel a job"),
  route("jobRetry", "POST", "/v2/:endpointId/retry/:jobId", "Serverless", "Retry a failed or timed-out job"),
  route("jobPurgeQueue", "POST", "/v2/:endpointId/purge-queue", "Serverless", "Remove queued jobs"),
  route("jobHealth", "GET", "/v2/:endpointId/health", "Serverless", "Worker and job counts"),
];

export type RouteMatch =
  | { readonly kind: "match"; readonly route: RouteDef; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: "method-not-allowed"; readonly allow: readonly HttpMethod[] }
  | { readonly kind: "not-found" };

/** Patterns split into segments once, not on every request. */
const segmentCache = new WeakMap<RouteDef, readonly string[]>();
function segmentsOf(r: RouteDef): readonly string[] {
  let segs = segmentCache.get(r);
  if (segs === undefined) {
    segs = r.pattern.split("/");
    segmentCache.set(r, segs);
  }
  return segs;
}

function matchPattern(ps: readonly string[], xs: readonly string[]): Record<string, string> | undefined {
  if (ps.length !== xs.length) return undefined;
  // Literal segments first: most routes are ruled out without decoding anything.
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i];
    if (p.charCodeAt(0) !== 58 /* ":" */ && p !== xs[i]) return undefined;
  }
  const params: Record<string, string> = Object.create(null);
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i];
    if (p.charCodeAt(0) !== 58) continue;
    const x = xs[i];
    if (x === "") return undefined;
    let value: string;
    try {
      value = x.includes("%") ? decodeURIComponent(x) : x;
    } catch {
      return undefined;
    }
    // An endpoint id never names one of the REST resource groups.
    if (p === ":endpointId" && RESERVED_SEGMENTS.has(value.toLowerCase())) return undefined;
    params[p.slice(1)] = value;
  }
  return params;
}

/** Routes grouped by segment count, per table: a path is only compared with routes of its length. */
const bySegments = new WeakMap<readonly RouteDef[], Map<number, RouteDef[]>>();
function candidates(table: readonly RouteDef[], count: number): readonly RouteDef[] {
  let index = bySegments.get(table);
  if (index === undefined) {
    index = new Map();
    for (const r of table) {
      const n = segmentsOf(r).length;
      const list = index.get(n) ?? [];
      list.push(r);
      index.set(n, list);
    }
    bySegments.set(table, index);
  }
  return index.get(count) ?? [];
}

/** Answers remembered per table (frozen: shared by every caller), emptied when full; a `--state` replay matches the same few paths a million times. */
const MEMO_LIMIT = 4096;
/** Longer paths are matched afresh, so the memory holds at most about 1 MiB of keys. */
const MEMO_PATH_MAX = 256;
const memos = new WeakMap<readonly RouteDef[], Map<string, RouteMatch>>();

/** Finds the route for a method and path; HEAD is served as GET. */
export function matchRoute(method: HttpMethod, rawPath: string, table: readonly RouteDef[] = routes): RouteMatch {
  if (rawPath.length > MEMO_PATH_MAX) return findRoute(method, rawPath, table);
  let memo = memos.get(table);
  if (memo === undefined) {
    memo = new Map();
    memos.set(table, memo);
  }
  const key = method + " " + rawPath;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const found = findRoute(method, rawPath, table);
  if (found.kind === "match") Object.freeze(found.params);
  if (found.kind === "method-not-allowed") Object.freeze(found.allow);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, Object.freeze(found));
  return found;
}

function findRoute(method: HttpMethod, rawPath: string, table: readonly RouteDef[]): RouteMatch {
  const path = rawPath.length > 1 && rawPath.endsWith("/") ? rawPath.slice(0, -1) : rawPath;
  const wanted = method === "HEAD" ? "GET" : method;
  const allow = new Set<HttpMethod>();
  const xs = path.split("/");
  for (const r of candidates(table, xs.length)) {
    const params = matchPattern(segmentsOf(r), xs);
    if (!params) continue;
    if (r.method === wanted) return { kind: "match", route: r, params };
    allow.add(r.method);
  }
  if (allow.size > 0) {
    if (allow.has("GET")) allow.add("HEAD");
    return { kind: "method-not-allowed", allow: [...allow].sort() };
  }
  return { kind: "not-found" };
}
