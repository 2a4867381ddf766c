/**
 * The terminal summary printed once at the end of a run. It does not list every rule again (the
 * progress did, and report.html does): it shows each failure with what was expected and how to
 * replay it, the skipped rules grouped by reason, the counts, the coverage, the wall time and the
 * request rate, and last the verdict ("PASSED (n of m rules judged)"). `quiet` leaves out the
 * skip reasons: only the failures and the totals remain.
 */
import { isSetupSkip, SETUP_NOT_REACHED, type ConformanceReport } from "./conformance-report.ts";
import { formatDuration, plural, requestsPerSecond } from "./format.ts";
import { failedWarnings, verdict } from "./verdict.ts";

export interface SummaryTableOptions {
  /** Terminal width in characters (default 100). */
  readonly width?: number;
  /** Only the failures and the totals. */
  readonly quiet?: boolean;
}

/** Text folded at spaces into lines of at most `width` (a longer word stays whole), each after the first indented. */
export function wrap(text: string, width: number, indent: string): string[] {
  const lead = /^ */.exec(text)![0];
  const lines: string[] = [];
  let line = lead;
  for (const word of text.slice(lead.length).split(" ")) {
    if (line.trim() !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = `${indent}${word}`;
    } else line = line.trim() === "" ? `${line}${word}` : `${line} ${word}`;
  }
  if (line.trim() !== "") lines.push(line);
  return lines;
}

const cut = (text: string, width: number): string => (text.length <= width ? text : `${text.slice(0, Math.max(1, width - 1))}…`);

export function renderSummaryTable(report: ConformanceReport, options: SummaryTableOptions = {}): string {
  const width = Math.max(40, options.width ?? 100);
  const lines: string[] = [];
  for (const r of report.rules.filter((x) => x.status === "fail")) {
    lines.push(`FAIL ${r.id}: ${plural(r.failures.length, "failure")}`);
    const first = r.failures[0];
    // The diagnosis whole: a CI log is often all a reader has (report.json may not be kept).
    if (first) lines.push(`  expected: ${first.evidence.expected.replace(/\s+/g, " ")}`, `  got: HTTP ${first.evidence.got.status}`);
    if (first?.reproduction.command) lines.push(`  reproduce ${r.id} with: ${first.reproduction.command}`);
  }
  const known = report.rules.filter((x) => x.status === "known");
  if (known.length) lines.push(`known (in the baseline): ${known.map((r) => r.id).join(", ")}`);
  if (!options.quiet) {
    const reasons = new Map<string, number>();
    for (const r of report.rules) if (r.status === "skip") reasons.set(r.reason ?? "skipped", (reasons.get(r.reason ?? "skipped") ?? 0) + 1);
    if (reasons.size) {
      lines.push(`skipped, by reason:`);
      // Whole, folded to the width: a reason cut short ("--profile s…") loses what to do.
      for (const [reason, n] of [...reasons].sort((a, b) => b[1] - a[1])) lines.push(...wrap(`  ${String(n).padStart(3)} × ${reason}`, width, "        "));
    }
  }
  const s = report.summary;
  const warnings = failedWarnings(report);
  const rate = requestsPerSecond(report.requests, report.wallTimeMs);
  lines.push(
    `${s.passed} passed, ${s.failed} failed${warnings > 0 ? ` (${warnings} of them ${warnings === 1 ? "a warning" : "warnings"})` : ""}, ${s.skipped} skipped${setupSkips(report)}, ${s.known} known` + (s.targetErrors ? `, ${plural(s.targetErrors, "target error")}` : ""),
    `coverage: ${report.coverage.rules.checked}/${report.coverage.rules.selected ?? report.coverage.rules.total} rules judged` + transitionsLine(report),
    `wall time ${formatDuration(report.wallTimeMs)}, ${plural(report.requests, "request")}, ${rate.toFixed(1)} requests/s`,
  );
  for (const e of report.targetErrors) lines.push(cut(`target error${e.ruleId ? ` in ${e.ruleId}` : ""}: ${e.code}: ${e.message}`, width * 3));
  lines.push(verdict(report).text);
  return lines.join("\n") + "\n";
}

/** The skips whose set-up did not come about, counted apart: " (N of them: set-up not reached)", or "". */
function setupSkips(report: ConformanceReport): string {
  const n = report.rules.filter(isSetupSkip).length;
  return n ? ` (${n} of them: ${SETUP_NOT_REACHED})` : "";
}

function transitionsLine(report: ConformanceReport): string {
  const machines = [...new Set(report.coverage.transitions.map((t) => t.machine))];
  return machines
    .map((m) => {
      const all = report.coverage.transitions.filter((t) => t.machine === m);
      return `, ${all.filter((t) => t.exercised).length}/${all.length} ${m} transitions`;
    })
    .join("");
}
