/** The client findings by client (User-Agent), as the proxy prints them at the stop: one line per client, one per rule it broke. */
import type { ClientFindingsRecord } from "../../reports/conformance-report.ts";

export function clientSummaryLines(clients: readonly ClientFindingsRecord[]): string[] {
  const out: string[] = [];
  for (const c of clients) {
    if (c.findings === 0) continue;
    out.push(`  client ${JSON.stringify(c.userAgent)}: ${c.findings} finding(s) in ${c.exchanges} exchange(s)`);
    for (const r of c.rules) out.push(`    ${r.id} x${r.count} (first #${r.exchange}): ${r.example.replace(/^\[client\] /, "").slice(0, 200)}`);
  }
  return out;
}
