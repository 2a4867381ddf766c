/**
 * One GraphQL call as the spec describes it: `POST {base_url}/graphql?api_key=<KEY>` with the
 * body `{query}`, and the answer read as GraphQL: its `data`, its top-level `errors`, and
 * whether the operation succeeded. Under the lenient profile a failed operation is one with a
 * non-2xx status or a top-level `errors` array (the spec leaves GraphQL errors open); the
 * envelope of an error is choices.md's, judged only by graphql.errors-envelope.
 */
import type { CheckContext } from "../../check.ts";
import type { Auth, ClientResponse } from "../../client.ts";
import { isObj, type Obj } from "./json-shape.ts";

export interface GqlAnswer {
  readonly res: ClientResponse;
  /** The `data` object, when the body has one. */
  readonly data: Obj | undefined;
  /** The top-level `errors` array, when the body has one. */
  readonly errors: readonly unknown[] | undefined;
  /** 2xx, no `errors`, and a `data` object: the operation succeeded. */
  readonly ok: boolean;
}

export function graphqlUrl(ctx: CheckContext): string {
  // The base URL may carry a path prefix: joined as a string, never resolved.
  return `${ctx.target.rest.replace(/\/+$/, "")}/graphql`;
}

/** The spec's way to authenticate: the full-access key in `?api_key=`. */
export const SPEC_AUTH: Auth = { key: "api", via: "query" };

export function readAnswer(res: ClientResponse): GqlAnswer {
  const body = res.json;
  const data = isObj(body) && isObj(body.data) ? body.data : undefined;
  const errors = isObj(body) && Array.isArray(body.errors) ? body.errors : undefined;
  const ok = res.status >= 200 && res.status < 300 && data !== undefined && (errors === undefined || errors.length === 0);
  return { res, data, errors, ok };
}

/** Sends `query`; `auth` null sends no key at all. */
export async function gql(ctx: CheckContext, query: string, auth: Auth | null = SPEC_AUTH): Promise<GqlAnswer> {
  const res = await ctx.client.request({ method: "POST", url: graphqlUrl(ctx), json: { query }, ...(auth ? { auth } : {}) });
  return readAnswer(res);
}

/** The object `data[field]`, or undefined. */
export function rootObject(answer: GqlAnswer, field: string): Obj | undefined {
  const v = answer.data?.[field];
  return isObj(v) ? v : undefined;
}

/** The messages of the answer's errors, joined, for refusal reasons. */
export function errorText(answer: GqlAnswer): string {
  const parts: string[] = [];
  for (const e of answer.errors ?? []) {
    if (isObj(e) && typeof e.message === "string") parts.push(e.message);
    if (isObj(e) && isObj(e.extensions) && typeof e.extensions.code === "string") parts.push(e.extensions.code);
  }
  if (parts.length === 0 && !answer.ok) parts.push(`HTTP ${answer.res.status} ${answer.res.text.slice(0, 300)}`);
  return parts.join(" ");
}

/** How an answer is described in a failure: status and the start of the body. */
export function describe(answer: GqlAnswer): string {
  return `HTTP ${answer.res.status} ${answer.res.text.slice(0, 400)}`;
}
