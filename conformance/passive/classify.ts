/**
 * Which operation of the spec an exchange is, from its method and path alone. The paths are the
 * spec's (createPod, the job endpoints) and choices.md's readings of what it leaves open (pod
 * reads, PATCH, the action path as any `POST /v2/pods/{id}/{word}`, the catalogs), kept loose
 * on purpose: a request the classifier does not know is still forwarded, and only the rules of
 * every answer (problem+json, RateLimit headers) judge it.
 */
import type { SeenExchange } from "./answer.ts";
import { BoundedMap } from "./bounded-map.ts";

export type JobOp = "run" | "runsync" | "status" | "status-sync" | "stream" | "cancel" | "retry" | "purge-queue" | "health";

export type Operation =
  | { readonly kind: "createPod" | "listPods" }
  | { readonly kind: "getPod" | "updatePod" | "deletePod"; readonly podId: string }
  | { readonly kind: "podAction"; readonly podId: string; readonly action: string }
  | { readonly kind: "catalog"; readonly what: "gpus" | "cpus" | "datacenters" }
  | { readonly kind: "graphql" }
  | { readonly kind: "job"; readonly op: JobOp; readonly endpointId: string; readonly jobId?: string }
  | { readonly kind: "other-rest" }
  | { readonly kind: "unknown" };

/** First segments after /v2 that belong to the REST host, never job endpoint ids. */
const REST_SEGMENTS = new Set([
  "pods", "catalog", "networkvolumes", "network-volumes", "templates", "containerregistryauth", "registries", "endpoints",
  "serverless", "account", "billing", "sandboxes", "user", "users",
]);

const JOB_WITH_ID = new Set<JobOp>(["status", "status-sync", "stream", "cancel", "retry"]);
const JOB_NO_ID = new Set<JobOp>(["run", "runsync", "purge-queue", "health"]);
const JOB_METHOD: Readonly<Record<JobOp, string>> = {
  run: "POST", runsync: "POST", status: "GET", "status-sync": "GET", stream: "GET", cancel: "POST", retry: "POST", "purge-queue": "POST", health: "GET",
};

export function classify(method: string, rawPath: string): Operation {
  const path = rawPath.length > 1 && rawPath.endsWith("/") ? rawPath.slice(0, -1) : rawPath;
  const m = method.toUpperCase();
  if (path === "/graphql") return { kind: "graphql" };
  const s = path.split("/").slice(1).map((x) => {
    try {
      return decodeURIComponent(x);
    } catch {
      return x;
    }
  });
  if (s[0] !== "v2" || s.length < 2) return { kind: "unknown" };
  if (s[1] === "pods") {
    if (s.length === 2) return m === "POST" ? { kind: "createPod" } : m === "GET" ? { kind: "listPods" } : { kind: "other-rest" };
    if (s.length === 3) {
      if (m === "GET") return { kind: "getPod", podId: s[2] };
      if (m === "PATCH") return { kind: "updatePod", podId: s[2] };
      if (m === "DELETE") return { kind: "deletePod", podId: s[2] };
    }
    if (s.length === 4 && m === "POST" && s[3] !== "logs") return { kind: "podAction", podId: s[2], action: s[3] };
    return { kind: "other-rest" };
  }
  if (s[1] === "catalog" && s.length === 3 && m === "GET" && (s[2] === "gpus" || s[2] === "cpus" || s[2] === "datacenters")) return { kind: "catalog", what: s[2] };
  if (REST_SEGMENTS.has(s[1])) return { kind: "other-rest" };
  const op = s[2] as JobOp;
  if (s.length === 3 && JOB_NO_ID.has(op) && JOB_METHOD[op] === m) return { kind: "job", op, endpointId: s[1] };
  if (s.length === 4 && JOB_WITH_ID.has(op) && JOB_METHOD[op] === m) return { kind: "job", op, endpointId: s[1], jobId: s[3] };
  return { kind: "unknown" };
}

/** The operations of the paths seen last: traffic repeats its paths, and an Operation is never changed. */
const OPERATIONS = 256;
const operations = new BoundedMap<string, Operation>(OPERATIONS);

export function operationOf(x: SeenExchange): Operation {
  const key = `${x.request.method} ${x.request.path}`;
  let op = operations.get(key);
  if (op === undefined) {
    op = Object.freeze(classify(x.request.method, x.request.path));
    operations.set(key, op);
  }
  return op;
}

/** Whether the answer is one of the REST interface's (its errors are problem+json). */
export function isRest(op: Operation): boolean {
  return op.kind !== "graphql" && op.kind !== "job" && op.kind !== "unknown";
}

export function describeOperation(op: Operation): string {
  switch (op.kind) {
    case "job":
      return `job ${op.op}`;
    case "catalog":
      return `catalog ${op.what}`;
    default:
      return op.kind;
  }
}
