/** Shadow mode on the terminal: one line per difference as it is found, and the account at the stop. */
import type { ShadowDifferenceRecord, ShadowRecord } from "../../reports/conformance-report.ts";

export function shadowDifferenceLine(d: ShadowDifferenceRecord): string {
  return `SHADOW ${d.rule} #${d.exchange} ${d.method} ${d.path}: target ${d.targetStatus} ${d.target.slice(0, 160)}; shadow ${d.shadowStatus} ${d.shadow.slice(0, 160)}\n`;
}

export function shadowSummaryLines(s: ShadowRecord): string[] {
  const skipped = s.skipped.writes + s.skipped.unknownObject + s.skipped.largeBody + s.skipped.noTargetAnswer;
  const dropped = s.dropped.queueFull + s.dropped.timeout + s.dropped.error + s.dropped.atStop;
  const out = [
    `  shadow ${s.shadow}: ${s.sent} sent, ${s.compared} compared, ${s.differing} differing on a rule the spec fixes; ` +
      `skipped ${skipped} (writes ${s.skipped.writes}${s.writes ? "" : " without --shadow-writes"}, objects the shadow never saw ${s.skipped.unknownObject}, bodies too large ${s.skipped.largeBody}, no target answer ${s.skipped.noTargetAnswer}); ` +
      `dropped ${dropped} (queue full ${s.dropped.queueFull}, timed out ${s.dropped.timeout}, failed ${s.dropped.error}, at the stop ${s.dropped.atStop})`,
  ];
  for (const r of s.rules) {
    out.push(`    ${r.id} x${r.count} (first #${r.first.exchange} ${r.first.method} ${r.first.path}): target ${r.first.target.slice(0, 120)}; shadow ${r.first.shadow.slice(0, 120)}`);
  }
  return out;
}
