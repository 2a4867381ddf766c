/**
 * The line a finding prints as it happens: rule id, side, the exchange, what the rule required,
 * and a curl command that replays the request against the target (keys as `${CPSIM_API_KEY}`,
 * which the shell expands from the environment).
 */
import type { RecordedRequest } from "../../reports/conformance-report.ts";
import { bodyText } from "../record-body.ts";
import { quoteWithVariables } from "../shell-quote.ts";
import type { Finding } from "../passive/passive-judge.ts";

const VARIABLES = new Set(["CPSIM_API_KEY", "CPSIM_OTHER_API_KEY"]);
const SKIPPED_HEADERS = new Set(["host", "content-length", "connection", "transfer-encoding", "keep-alive", "accept-encoding"]);

export function curlLine(req: RecordedRequest): string {
  const parts = ["curl", "-sS", "-i", "-X", req.method, quoteWithVariables(req.url, VARIABLES)];
  for (const [k, v] of Object.entries(req.headers)) if (!SKIPPED_HEADERS.has(k)) parts.push("-H", quoteWithVariables(`${k}: ${v}`, VARIABLES));
  if (req.body) {
    const text = bodyText(req.body);
    if (text === undefined) parts.push("--data-binary", quoteWithVariables(`(a body of ${req.body.kind === "truncated" ? req.body.size : "?"} bytes, not kept: see report.json)`, VARIABLES));
    else if (text.length <= 4096) parts.push("--data-binary", quoteWithVariables(text, VARIABLES));
    else parts.push("--data-binary", quoteWithVariables(`(a body of ${text.length} characters: the script in report.json regenerates it)`, VARIABLES));
  }
  return parts.join(" ");
}

export function findingLines(f: Finding): string {
  const x = f.exchange;
  const status = x.answer ? `${x.answer.status}` : "no answer";
  const head = `FAIL ${f.rule.id} [${f.side}] (${f.rule.severity}) #${x.seq} ${x.request.method} ${x.request.path}${x.request.query.size ? "?…" : ""} -> ${status}: ${f.expected}`;
  return `${head}\n  replay: ${curlLine(x.recorded.request)}\n`;
}
