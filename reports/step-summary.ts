/**
 * A conformance run as GitHub-flavoured Markdown, for the job summary a CI step appends to
 * `$GITHUB_STEP_SUMMARY`: the verdict first, each failure with what was expected, what came
 * back and the line that reproduces it, then what was skipped and why, grouped by reason. The
 * diagnoses are whole: a pipeline's summary is often all a reader opens.
 */
import type { ConformanceReport } from "./conformance-report.ts";
import { formatDuration, plural } from "./format.ts";
import { verdict } from "./verdict.ts";

/** Text inside a table cell: pipes escaped, lines joined. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");
}

/** A fenced block whose fence no line of the text can close. */
function fenced(text: string, lang = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

export function renderStepSummary(report: ConformanceReport, exitCode: number): string {
  const v = verdict(report);
  const icon = v.kind === "pass" && exitCode === 0 ? "✅" : "❌";
  const lines: string[] = [
    `## ${icon} cpsim conform: ${v.text}`,
    "",
    `Target \`${report.target}\`, seed ${report.seed}, profile ${report.profile}, ${formatDuration(report.wallTimeMs)}, ${plural(report.requests, "request")}; exit ${exitCode}.`,
    "",
  ];
  const failed = report.rules.filter((r) => r.status === "fail");
  if (failed.length) {
    lines.push(`### Failures (${failed.length})`, "");
    for (const r of failed) {
      const f = r.failures[0];
      lines.push(`#### \`${r.id}\` (${r.severity}): ${cell(r.title)}`, "");
      lines.push(`> ${cell(r.spec)}`, "");
      if (f) {
        lines.push(`- expected: ${cell(f.evidence.expected)}`, `- got: HTTP ${f.evidence.got.status} to \`${f.evidence.request.method} ${f.evidence.request.url}\``);
        if (r.failures.length > 1) lines.push(`- and ${plural(r.failures.length - 1, "more failure")} in report.json`);
        if (f.reproduction.command) lines.push("", "Reproduce:", "", fenced(f.reproduction.command, "sh"));
      }
      lines.push("");
    }
  }
  const known = report.rules.filter((r) => r.status === "known");
  if (known.length) lines.push(`Known (in the baseline): ${known.map((r) => `\`${r.id}\``).join(", ")}`, "");
  if (report.targetErrors.length) {
    lines.push(`### Target errors (${report.targetErrors.length})`, "");
    for (const e of report.targetErrors) lines.push(`- ${e.ruleId ? `\`${e.ruleId}\`: ` : ""}${e.code}: ${cell(e.message)}`);
    lines.push("");
  }
  const reasons = new Map<string, string[]>();
  for (const r of report.rules) if (r.status === "skip") reasons.set(r.reason ?? "skipped", [...(reasons.get(r.reason ?? "skipped") ?? []), r.id]);
  if (reasons.size) {
    const skipped = [...reasons.values()].reduce((n, ids) => n + ids.length, 0);
    lines.push(`<details><summary>Skipped (${skipped}), by reason</summary>`, "", "| rules | reason |", "|---|---|");
    for (const [reason, ids] of [...reasons].sort((a, b) => b[1].length - a[1].length)) {
      lines.push(`| ${ids.length}: ${ids.map((id) => `\`${id}\``).join(", ")} | ${cell(reason)} |`);
    }
    lines.push("", "</details>", "");
  }
  return lines.join("\n") + "\n";
}

/** A run that stopped before any rule (a refused key, a missing endpoint, a bad flag), as Markdown. */
export function renderStepSummaryError(message: string): string {
  return `## ❌ cpsim conform: configuration error (exit 2)\n\n${cell(message)}\n\nNo rule was judged.\n`;
}
