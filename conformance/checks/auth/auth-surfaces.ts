/**
 * The operations every authentication check goes through: each of the spec's job operations
 * that cannot wait or purge, createPod, and GraphQL. `listPods` (choices.md) joins under the
 * strict profile only. `creates` says what a 2xx made, for cleanup when a target wrongly accepts.
 */
import type { CheckContext } from "../../check.ts";
import type { Auth, RequestSpec } from "../../client.ts";
import type { Placement } from "./credentials.ts";
import type { PodBody } from "./pod-body.ts";
import { graphqlRequest, jobUrl, restUrl, UNKNOWN_JOB_ID } from "./target.ts";

export type Interface = "rest" | "jobs" | "graphql";

export interface AuthSurface {
  readonly name: string;
  readonly interface: Interface;
  readonly placement: Placement;
  readonly creates?: "pod" | "job";
  readonly strictOnly?: boolean;
  request(ctx: CheckContext, auth: Auth | undefined): RequestSpec;
}

const withAuth = (spec: RequestSpec, auth: Auth | undefined): RequestSpec => (auth ? { ...spec, auth } : spec);

/** When the target's catalog gave no GPU in stock, a body whose only fault may be its GPU id. */
const FALLBACK_BODY = { name: "cpsim-auth", image: "ubuntu:22.04", gpu: { id: "cpsim-auth-gpu", count: 1 } };

export function authSurfaces(pod: PodBody | undefined): AuthSurface[] {
  const job = (method: string, op: string, id?: string, json?: unknown): AuthSurface => ({
    name: `${method} ${op}${id ? "/<job_id>" : ""}`,
    interface: "jobs",
    placement: "header",
    ...(op === "run" ? { creates: "job" as const } : {}),
    request: (ctx, auth) => withAuth({ method, url: jobUrl(ctx, op, id), ...(json !== undefined ? { json } : {}) }, auth),
  });
  return [
    {
      name: "POST /v2/pods",
      interface: "rest",
      placement: "header",
      creates: "pod",
      request: (ctx, auth) => withAuth({ method: "POST", url: restUrl(ctx, "/v2/pods"), json: pod ?? FALLBACK_BODY }, auth),
    },
    {
      name: "GET /v2/pods",
      interface: "rest",
      placement: "header",
      strictOnly: true,
      request: (ctx, auth) => withAuth({ method: "GET", url: restUrl(ctx, "/v2/pods") }, auth),
    },
    job("POST", "run", undefined, { input: {} }),
    job("GET", "status", UNKNOWN_JOB_ID),
    job("GET", "stream", UNKNOWN_JOB_ID),
    job("POST", "cancel", UNKNOWN_JOB_ID),
    job("POST", "retry", UNKNOWN_JOB_ID),
    job("GET", "health"),
    {
      name: "POST /graphql",
      interface: "graphql",
      placement: "query",
      request: (ctx, auth) => graphqlRequest(ctx, "{ gpuTypes { id } }", auth),
    },
  ];
}

export function surfacesFor(ctx: CheckContext, pod: PodBody | undefined): AuthSurface[] {
  return authSurfaces(pod).filter((s) => !s.strictOnly || ctx.options.profile === "strict");
}
