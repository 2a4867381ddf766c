/** Stand-in for `k6/http`: only the calls the exported scripts use, synchronous like k6's. */
import { standin } from "./recorder.ts";
import { syncRequest } from "./sync-http.ts";

export interface StandinResponse {
  readonly status: number;
  readonly body: string;
  readonly headers: Record<string, string>;
  readonly error: string;
  json(): unknown;
}

function request(method: string, url: string, body?: string | null, params?: { headers?: Record<string, string> }): StandinResponse {
  standin.requests++;
  const r = syncRequest(method, url, body ?? null, params?.headers ?? {});
  return { status: r.status, body: r.body, headers: r.headers, error: r.error ?? "", json: () => JSON.parse(r.body) };
}

const http = {
  request,
  get: (url: string, params?: { headers?: Record<string, string> }) => request("GET", url, null, params),
  post: (url: string, body?: string | null, params?: { headers?: Record<string, string> }) => request("POST", url, body, params),
  del: (url: string, body?: string | null, params?: { headers?: Record<string, string> }) => request("DELETE", url, body, params),
  expectedStatuses: (range: { min: number; max: number }, ...extra: number[]) => ({ min: range.min, max: range.max, extra }),
  setResponseCallback: (cb: { min: number; max: number; extra: number[] }) => {
    standin.callback = cb;
  },
};

export default http;
