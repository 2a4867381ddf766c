/**
 * A failure as plain text, for formats that carry text only (JUnit's failure element, logs).
 * It holds the same parts as the HTML report: rule, spec sentence, evidence, reproduction.
 */
import type { RecordedBody, RecordedRequest, ReportFailure } from "./conformance-report.ts";

/** How a recorded body reads in a report; large generated bodies are described, not inlined. */
export function describeBody(body: RecordedBody | undefined): string {
  if (!body) return "";
  switch (body.kind) {
    case "text":
      return body.text;
    case "runs":
      return body.parts.map((p) => ("text" in p ? p.text : `<${p.count} × "${p.char}">`)).join("");
    case "truncated":
      return `${body.head}<… ${body.size} bytes in all>`;
  }
}

export function requestText(request: RecordedRequest): string {
  const headers = Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`);
  const body = describeBody(request.body);
  return [`${request.method} ${request.url}`, ...headers, ...(body ? ["", body] : [])].join("\n");
}

export function failureText(f: ReportFailure): string {
  const got = f.evidence.got;
  const gotHeaders = Object.entries(got.headers).map(([k, v]) => `${k}: ${v}`);
  return [
    `rule: ${f.ruleId} (${f.severity}): ${f.title}`,
    `spec: ${f.spec}`,
    `expected: ${f.evidence.expected}`,
    `got: HTTP ${got.status}`,
    ...gotHeaders,
    ...(got.body ? ["", got.body] : []),
    "",
    "request:",
    requestText(f.evidence.request),
    "",
    `seed: ${f.reproduction.seed}${f.reproduction.path ? ` path: ${f.reproduction.path}` : ""}`,
    ...(f.reproduction.command ? [`reproduce with: ${f.reproduction.command}`] : []),
    "curl:",
    f.reproduction.curl,
  ].join("\n");
}
