/** Small pure edits of requests and answers that the defects are written with. */
import { problem } from "../api/problem.ts";
import type { ApiRequest, ApiResponse } from "../api/types.ts";
import type { Edge } from "./defect.ts";

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The key a request carries: `Authorization: Bearer K`, a bare `Authorization: K`, or GraphQL's `api_key`. */
export function keyOf(req: ApiRequest): string | undefined {
  const auth = req.headers.authorization?.trim();
  if (auth) {
    const m = /^bearer\s+(\S+)$/i.exec(auth);
    return m ? m[1] : auth.includes(" ") ? undefined : auth;
  }
  return req.query.api_key || undefined;
}

export function withKey(req: ApiRequest, key: string): ApiRequest {
  return { ...req, headers: { ...req.headers, authorization: `Bearer ${key}` } };
}

/** A key of `account` (the request's own by default) with `access`. */
export function keyFor(at: Edge, access: "full" | "read-only" | "exempt", account = at.account): string | undefined {
  return at.keys.find((k) => k.account === account && k.access === access)?.key;
}

export function withBody(req: ApiRequest, body: unknown): ApiRequest {
  return { ...req, body };
}

/** The request body with `edit` applied to a copy, when it is an object. */
export function editBody(req: ApiRequest, edit: (body: Json) => void): ApiRequest {
  if (!isObject(req.body)) return req;
  const body = structuredClone(req.body);
  edit(body);
  return withBody(req, body);
}

export function withQuery(req: ApiRequest, edit: (q: Record<string, string>) => void): ApiRequest {
  const query = { ...req.query };
  edit(query);
  return { ...req, query };
}

export function answer(res: ApiResponse, changes: Partial<ApiResponse>): ApiResponse {
  return { ...res, ...changes };
}

export function setHeader(res: ApiResponse, name: string, value: string | undefined): ApiResponse {
  const headers: Record<string, string> = { ...res.headers };
  if (value === undefined) delete headers[name];
  else headers[name] = value;
  return { ...res, headers };
}

/** The answer with `edit` applied to a copy of its body, when the body is an object. */
export function editAnswer(res: ApiResponse, edit: (body: Json) => void): ApiResponse {
  if (!isObject(res.body)) return res;
  const body = structuredClone(res.body);
  edit(body);
  return { ...res, body };
}

/** Every object anywhere in `value` that has property `key`, depth first. */
export function objectsWith(value: unknown, key: string, out: Json[] = []): Json[] {
  if (Array.isArray(value)) for (const v of value) objectsWith(v, key, out);
  else if (isObject(value)) {
    if (key in value) out.push(value);
    for (const v of Object.values(value)) objectsWith(v, key, out);
  }
  return out;
}

/** The answer with `edit` applied to every object in its body that has `key`. */
export function editEach(res: ApiResponse, key: string, edit: (o: Json) => void): ApiResponse {
  if (typeof res.body !== "object" || res.body === null) return res;
  const body = structuredClone(res.body);
  for (const o of objectsWith(body, key)) edit(o);
  return { ...res, body };
}

export const POD_OPS = new Set(["createPod", "getPod", "listPods", "updatePod", "podAction"]);
export const GRAPHQL_OPS = new Set(["graphql", "graphqlGet"]);

/** Every REST pod of an answer: the body, or each of `pods`. */
export function editPods(res: ApiResponse, at: Edge, edit: (pod: Json) => void): ApiResponse {
  if (!POD_OPS.has(at.op ?? "") || res.status >= 300) return res;
  return editAnswer(res, (body) => {
    const pods = Array.isArray(body.pods) ? body.pods.filter(isObject) : [body];
    for (const pod of pods) if (typeof pod.id === "string" && "status" in pod) edit(pod);
  });
}

/** The GraphQL answer with `edit` applied to every object in `data` that has `key`. */
export function editGraphql(res: ApiResponse, at: Edge, key: string, edit: (o: Json) => void): ApiResponse {
  if (!GRAPHQL_OPS.has(at.op ?? "") || !isObject(res.body) || !isObject(res.body.data)) return res;
  return editAnswer(res, (body) => {
    for (const o of objectsWith(body.data, key)) edit(o);
  });
}

/** The text of a GraphQL request (query plus variables), for defects that key on what it asks. */
export function graphqlText(req: ApiRequest): string {
  const b = req.body;
  if (isObject(b)) return `${String(b.query ?? "")} ${JSON.stringify(b.variables ?? {})}`;
  return `${req.query.query ?? ""} ${req.query.variables ?? ""}`;
}

/** A job answer (status, cancel, retry, run, runsync, status-sync) with `edit` applied. */
export const JOB_OPS = new Set(["jobRun", "jobRunsync", "jobStatus", "jobStatusSync", "jobCancel", "jobRetry"]);
export function editJob(res: ApiResponse, at: Edge, ops: ReadonlySet<string>, edit: (job: Json) => void): ApiResponse {
  if (!ops.has(at.op ?? "") || res.status >= 300) return res;
  return editAnswer(res, edit);
}

export function ok(body: unknown, headers: Readonly<Record<string, string>> = {}): ApiResponse {
  return { status: 200, headers: { "content-type": "application/json; charset=utf-8", ...headers }, body };
}

export { problem };

/** The problem `detail` (or GraphQL error messages) of an answer, for defects that key on why it refused. */
export function detailOf(res: ApiResponse): string {
  const b = res.body;
  if (!isObject(b)) return "";
  return [b.detail, ...(Array.isArray(b.errors) ? b.errors.map((e) => (isObject(e) ? e.message : e)) : [])].map(String).join(" ");
}

export function isPowerOfTwo(n: number): boolean {
  return Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0;
}
