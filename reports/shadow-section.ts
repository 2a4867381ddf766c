/**
 * The HTML section (with its own line end, so an absent section leaves the page as it was) of
 * `cpsim proxy --shadow`: what was sent to the second implementation, compared, skipped and
 * dropped, and each rule on which its answers differed from the target's.
 */
import type { ShadowRecord } from "./conformance-report.ts";
import { escapeHtml as h } from "./escape.ts";

export function shadowSection(s: ShadowRecord | undefined): string {
  if (!s) return "";
  const sk = s.skipped;
  const dr = s.dropped;
  const account =
    `<p>Shadow: <code>${h(s.shadow)}</code> (${s.writes ? "reads and writes" : "reads only"}). ${s.sent} exchange(s) sent, ${s.compared} compared, ` +
    `${s.differing} differing on a rule the spec fixes. Skipped: ${sk.writes} write(s)${s.writes ? "" : " (no --shadow-writes)"}, ${sk.unknownObject} naming an object the shadow never saw, ` +
    `${sk.largeBody} with a body too large to copy, ${sk.noTargetAnswer} the target did not answer. Dropped: ${dr.queueFull} (queue full), ${dr.timeout} (timed out), ` +
    `${dr.error} (the shadow failed), ${dr.atStop} (at the stop).</p>`;
  const rows = s.rules
    .map(
      (r) =>
        `<tr><td class="id"><code>${h(r.id)}</code></td><td>${r.count}</td><td>#${r.first.exchange} <code>${h(r.first.method)} ${h(r.first.path)}</code></td>` +
        `<td>${r.first.targetStatus}: ${h(r.first.target)}</td><td>${r.first.shadowStatus}: ${h(r.first.shadow)}</td></tr>`,
    )
    .join("");
  const table = s.rules.length
    ? `<table><thead><tr><th>rule</th><th>times</th><th>first exchange</th><th>target</th><th>shadow</th></tr></thead><tbody>${rows}</tbody></table>`
    : "<p>No difference on a rule the spec fixes.</p>";
  return `<section id="shadow"><h2>Shadow differences</h2>${account}${table}</section>\n`;
}
