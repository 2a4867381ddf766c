/**
 * Turns what flowed through the proxy into an exchange the passive checks judge, and the record
 * reports keep. Keys pass through the proxy untouched but never reach a record: the credential
 * of each request (the Authorization header, the `api_key` query) becomes a `${CPSIM_API_KEY}`
 * placeholder wherever it occurs, and per-key rules see only an opaque digest of it.
 */
import { createHash } from "node:crypto";
import type { RecordedRequest, RecordedResponse } from "../../reports/conformance-report.ts";
import type { Exchange } from "../recorder.ts";
import { BoundedMap } from "../passive/bounded-map.ts";
import { redactText, type Redaction } from "../keys.ts";
import { recordBody } from "../record-body.ts";
import { redactRequest, urlRedactions } from "../redact-request.ts";
import { parseJson, type SeenExchange, type Surface } from "../passive/answer.ts";
import type { Flow } from "./forward.ts";

/** Characters of a response body a report keeps (the judge saw up to the capture bound). */
const RECORDED_BODY_CHARS = 16 * 1024;

/** The credentials of a request: the Authorization header's, the `api_key` query's (`query`: the path's, parsed once by the caller). */
export function credentialsOf(flow: Pick<Flow, "requestHeaders" | "path">, query: URLSearchParams = new URL(flow.path, "http://proxy.invalid").searchParams): string[] {
  const out: string[] = [];
  const auth = flow.requestHeaders["authorization"];
  if (auth) {
    const m = /^\s*bearer\s+(.+?)\s*$/i.exec(auth);
    out.push(m ? m[1] : auth.trim());
  }
  const fromQuery = query.get("api_key");
  if (fromQuery) out.push(fromQuery);
  return [...new Set(out.filter((s) => s.length > 0))];
}

export function redactionsFor(secrets: readonly string[]): Redaction[] {
  const envs = ["CPSIM_API_KEY", "CPSIM_OTHER_API_KEY"];
  return secrets.map((value, i) => ({ value, env: envs[Math.min(i, envs.length - 1)] })).sort((a, b) => b.value.length - a.value.length);
}

export function keyDigest(secret: string): string {
  return createHash("sha256").update(secret).digest("hex").slice(0, 12);
}

/** The digests of the keys seen last: a client sends the same few keys again and again. */
const DIGESTS = 64;
const digests = new BoundedMap<string, string>(DIGESTS);
function digestOf(secret: string): string {
  let d = digests.get(secret);
  if (d === undefined) {
    d = keyDigest(secret);
    digests.set(secret, d);
  }
  return d;
}

/** The exchange as reports record it, keys redacted: made only when a finding or an error shows it. */
function recordedFlow(flow: Flow, secrets: readonly string[]): Exchange {
  const redactions = redactionsFor(secrets);
  const rawRequest: RecordedRequest = {
    method: flow.method,
    url: `${flow.upstreamUrl}`,
    headers: Object.fromEntries(Object.entries(flow.requestHeaders).filter(([k]) => k !== "host" && k !== "content-length" && k !== "connection")),
    ...(flow.requestSize > 0
      ? { body: flow.requestTruncated ? { kind: "truncated" as const, size: flow.requestSize, head: flow.requestText.slice(0, RECORDED_BODY_CHARS) } : recordBody(flow.requestText) }
      : {}),
  };
  const request = redactRequest(rawRequest, redactions);
  const forms = urlRedactions(redactions);
  const r = flow.response;
  const response: RecordedResponse | undefined = r
    ? {
        status: r.status,
        headers: Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, redactText(v, forms)])),
        body: redactText(r.text.slice(0, RECORDED_BODY_CHARS), forms),
        size: r.size,
        truncated: r.truncated || r.text.length > RECORDED_BODY_CHARS,
        durationMs: flow.answeredAt - flow.sentAt,
      }
    : undefined;
  return { request, ...(response ? { response } : {}) };
}

/** Characters of each body a follower keeps of an exchange it may quote later (its slim form). */
export const SLIM_BODY_CHARS = 2 * 1024;

/** A copy of the first `n` characters that holds nothing of `s` (a slice of a long string keeps the whole string alive). */
function headCopy(s: string, n: number): string {
  return s.length <= n ? s : Buffer.from(s.slice(0, n), "utf8").toString("utf8");
}

/** The flow with its bodies cut to SLIM_BODY_CHARS, copied: what a follower may keep for as long as it follows a job. */
function slimFlow(flow: Flow): Flow {
  const r = flow.response;
  return {
    ...flow,
    requestText: headCopy(flow.requestText, SLIM_BODY_CHARS),
    requestTruncated: flow.requestTruncated || flow.requestText.length > SLIM_BODY_CHARS,
    ...(r ? { response: { ...r, text: headCopy(r.text, SLIM_BODY_CHARS), truncated: r.truncated || r.text.length > SLIM_BODY_CHARS } } : {}),
  };
}

/**
 * `parsed`: the path and credentials the full exchange already read, which its slim form (the
 * same path and headers) takes as they are rather than parsing them again.
 */
export function seenFromFlow(flow: Flow, seq: number, surface: Surface, slim = false, parsed?: { readonly url: URL; readonly secrets: string[] }): SeenExchange {
  const url = parsed?.url ?? new URL(flow.path, "http://proxy.invalid");
  const secrets = parsed?.secrets ?? credentialsOf(flow, url.searchParams);
  const r = flow.response;
  // An answer cut short (the client left, the connection broke) is judged on its head, as one above the capture bound.
  const cut = r !== undefined && (r.truncated || flow.error !== undefined);
  let recorded: Exchange | undefined;
  let slimmed: SeenExchange | undefined;
  return {
    seq,
    surface,
    request: {
      method: flow.method,
      path: url.pathname,
      query: url.searchParams,
      headers: flow.requestHeaders,
      ...(flow.requestSize > 0 && !flow.requestTruncated ? { text: flow.requestText } : {}),
      json: flow.requestTruncated || slim ? undefined : parseJson(flow.requestText),
      size: flow.requestSize,
      truncated: flow.requestTruncated,
    },
    ...(r ? { answer: { status: r.status, headers: r.headers, text: r.text, json: cut || slim ? undefined : parseJson(r.text), size: r.size, truncated: cut } } : {}),
    sentAt: flow.sentAt,
    answeredAt: flow.answeredAt,
    ...(secrets.length ? { keyId: digestOf(secrets[0]) } : {}),
    // Redacting costs more than judging a correct exchange, and only a finding or an error reads it.
    get recorded(): Exchange {
      return (recorded ??= recordedFlow(flow, secrets));
    },
    ...(slim ? {} : { slim: () => (slimmed ??= seenFromFlow(slimFlow(flow), seq, surface, true, { url, secrets })) }),
  };
}
