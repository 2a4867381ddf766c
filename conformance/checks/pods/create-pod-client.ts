/**
 * Sending createPod and cleaning up after it. Every pod a check makes (on purpose, or because
 * a target accepted a body it should have refused) is terminated at once, so that no other
 * check meets it and the account's pod count stays low. How to terminate is not in the spec,
 * so the target's facts say (its DELETE, else its `terminate` action), and a cleanup that fails
 * is logged, never a verdict.
 */
import type { CheckContext } from "../../check.ts";
import type { Auth, ClientResponse } from "../../client.ts";
import type { CurlCapture } from "../../curl.ts";
import type { Exchange } from "../../recorder.ts";
import { podActionRequest, podDeleteRequest } from "../../target-facts/index.ts";

export interface SendOptions {
  /** A raw body, sent as it is (malformed JSON); otherwise `json`. */
  readonly raw?: string;
  readonly json?: unknown;
  readonly auth?: Auth | null;
  readonly headers?: Readonly<Record<string, string>>;
}

export const podsUrl = (ctx: CheckContext): string => `${ctx.target.rest}/v2/pods`;

/** POST /v2/pods; a pod it creates is terminated before this returns. */
export async function sendCreate(ctx: CheckContext, opts: SendOptions): Promise<ClientResponse> {
  const auth = opts.auth === null ? undefined : (opts.auth ?? { key: "api" as const });
  const headers = { ...(opts.raw !== undefined ? { "content-type": "application/json" } : {}), ...opts.headers };
  const res = await ctx.client.request({
    method: "POST",
    url: podsUrl(ctx),
    ...(auth ? { auth } : {}),
    ...(opts.raw !== undefined ? { body: opts.raw } : { json: opts.json }),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  });
  const id = createdPodId(res);
  if (id !== undefined) {
    if (res.status === 201 && podField(res, "status") === "PROVISIONING") ctx.exercised("pod", "(none)", "PROVISIONING");
    await terminatePod(ctx, id);
  }
  return res;
}

/**
 * The id of the pod a 2xx answer created, if it names one: the body's `id`, or else the last
 * segment of a `Location` header naming the new pod (`/v2/pods/{id}`, absolute or relative), so a
 * pod a target created without a body in its answer is still known (and terminated).
 */
export function createdPodId(res: ClientResponse): string | undefined {
  if (res.status < 200 || res.status >= 300) return undefined;
  const id = podField(res, "id");
  if (typeof id === "string" && id !== "") return id;
  return locationId(res.headers["location"]);
}

/**
 * The capture of a created pod's id for a failure's curl script: from the answer's `id`, or from
 * its `Location` header where the body does not carry the id (the replay reads it the same way).
 */
export function podIdCapture(variable: string, fromRequest: number, exchange: Exchange | undefined, id: string): CurlCapture {
  const response = exchange?.response;
  const fromLocation = response !== undefined && !bodyHoldsId(response.body, id) && locationId(response.headers["location"]) === id;
  return { variable, fromRequest, field: "id", value: id, ...(fromLocation ? { fromLocation: true } : {}) };
}

function bodyHoldsId(text: string, id: string): boolean {
  try {
    const body = JSON.parse(text) as unknown;
    return typeof body === "object" && body !== null && (body as Record<string, unknown>)["id"] === id;
  } catch {
    return false;
  }
}

/** The id a `Location` header of a created pod names: the segment after `/pods/`. */
export function locationId(location: string | undefined): string | undefined {
  if (location === undefined) return undefined;
  let path: string;
  try {
    path = new URL(location, "http://relative.invalid").pathname;
  } catch {
    return undefined;
  }
  const m = /\/pods\/([^/?#]+)\/?$/.exec(path);
  return m ? decodeURIComponent(m[1]!) : undefined;
}

export function podField(res: ClientResponse, field: string): unknown {
  const body = res.json;
  return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)[field] : undefined;
}

export async function terminatePod(ctx: CheckContext, podId: string): Promise<void> {
  const ok = (status: number) => status >= 200 && status < 300;
  const del = podDeleteRequest(ctx, podId);
  if (del && ok((await ctx.client.request(del)).status)) return;
  const action = podActionRequest(ctx, podId, "terminate");
  if (ok((await ctx.client.request(action)).status)) return;
  ctx.log(`could not terminate pod ${podId} (tried ${del ? `DELETE ${del.url} and ` : ""}POST ${action.url}); it may linger on the target`);
}
