/**
 * Where the auth and rate-limit checks send their requests: URLs built from the target's base
 * URLs (which may carry a path prefix, so they are joined as strings, never resolved), and the
 * few requests several checks share. Only the spec's own paths are assumed, except where a
 * check says it tries a choices.md path and judges the answer only when the target serves it.
 */
import type { CheckContext } from "../../check.ts";
import type { Auth, RequestSpec } from "../../client.ts";

const trim = (base: string) => base.replace(/\/+$/, "");

export function restUrl(ctx: CheckContext, path: string): string {
  return `${trim(ctx.target.rest)}${path}`;
}

/** `{serverless_url}/v2/<endpoint_id>/<op>[/<job_id>]`. */
export function jobUrl(ctx: CheckContext, op: string, jobId?: string): string {
  const tail = jobId === undefined ? "" : `/${encodeURIComponent(jobId)}`;
  return `${trim(ctx.target.serverless)}/v2/${encodeURIComponent(ctx.target.endpoint)}/${op}${tail}`;
}

export function podUrl(ctx: CheckContext, podId: string, suffix = ""): string {
  return restUrl(ctx, `/v2/pods/${encodeURIComponent(podId)}${suffix}`);
}

/** `POST {base_url}/graphql` with `{query}`; the key goes where `auth` says (the spec: `api_key`). */
export function graphqlRequest(ctx: CheckContext, query: string, auth: Auth | undefined): RequestSpec {
  return { method: "POST", url: restUrl(ctx, "/graphql"), json: { query }, ...(auth ? { auth } : {}) };
}

/** A job id no target has issued: requests about it are judged on authentication alone. */
export const UNKNOWN_JOB_ID = "cpsim-auth-no-such-job";

export const is2xx = (status: number): boolean => status >= 200 && status < 300;
export const is4xx = (status: number): boolean => status >= 400 && status < 500;

/** A JSON object's string field, or undefined. */
export function stringField(value: unknown, field: string): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = (value as Record<string, unknown>)[field];
  return typeof v === "string" ? v : undefined;
}
