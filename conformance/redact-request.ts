/**
 * Takes keys out of a request before it is recorded. Each configured key becomes its
 * `${CPSIM_..._KEY}` placeholder wherever it occurs, in its raw and URL-encoded forms. The
 * Authorization header and the `api_key` query parameter get a second look: a value there
 * that still shares a long piece with a key (a key with one character changed, to test that an
 * invalid key gets 401) is replaced by `<redacted>` as a whole, since it would leak most of it.
 */
import type { RecordedRequest } from "../reports/conformance-report.ts";
import type { Redaction } from "./keys.ts";
import { redactText } from "./keys.ts";

const LEAK_LENGTH = 8;
export const REDACTED = "<redacted>";

/** Each secret in the forms it can take in a URL, so the placeholder replaces them all. */
export function urlRedactions(redactions: readonly Redaction[]): Redaction[] {
  const out: Redaction[] = [];
  for (const r of redactions) {
    const forms = new Set([r.value, encodeURIComponent(r.value), new URLSearchParams({ k: r.value }).toString().slice(2)]);
    for (const value of forms) out.push({ value, env: r.env });
  }
  return out.sort((a, b) => b.value.length - a.value.length);
}

function leaks(value: string, redactions: readonly Redaction[]): boolean {
  for (const { value: secret } of redactions) {
    if (secret.length < LEAK_LENGTH) continue;
    for (let i = 0; i + LEAK_LENGTH <= secret.length; i++) {
      if (value.includes(secret.slice(i, i + LEAK_LENGTH))) return true;
    }
  }
  return false;
}

/** A header or parameter value that may hold a key: placeholders for keys, nothing of a key left. */
export function redactCredential(value: string, redactions: readonly Redaction[]): string {
  const replaced = redactText(value, redactions);
  return leaks(replaced, redactions) ? REDACTED : replaced;
}

function redactUrl(url: string, redactions: readonly Redaction[]): string {
  const forms = urlRedactions(redactions);
  const [head, ...rest] = url.split("?");
  if (rest.length === 0) return redactText(url, forms);
  const query = rest
    .join("?")
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq === -1 || pair.slice(0, eq) !== "api_key") return redactText(pair, forms);
      return `api_key=${redactCredential(pair.slice(eq + 1), forms)}`;
    })
    .join("&");
  return `${redactText(head, forms)}?${query}`;
}

export function redactRequest(request: RecordedRequest, redactions: readonly Redaction[]): RecordedRequest {
  if (redactions.length === 0) return request;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name] = name.toLowerCase() === "authorization" ? redactCredential(value, redactions) : redactText(value, redactions);
  }
  const body = request.body;
  const redactedBody =
    body === undefined
      ? undefined
      : body.kind === "text"
        ? { kind: "text" as const, text: redactText(body.text, redactions) }
        : body.kind === "truncated"
          ? { ...body, head: redactText(body.head, redactions) }
          : { ...body, parts: body.parts.map((p) => ("text" in p ? { text: redactText(p.text, redactions) } : p)) };
  return { ...request, url: redactUrl(request.url, redactions), headers, ...(redactedBody ? { body: redactedBody } : {}) };
}
