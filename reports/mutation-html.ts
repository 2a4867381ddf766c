/**
 * The mutation run as one self-contained HTML page: the score, the defect × catching-rules
 * table (filterable by verdict, with the spec sentence each defect breaks), the clean run and
 * the rules no defect breaks. Every value is escaped; no network, as the conformance report.
 */
import { escapeHtml as h } from "./escape.ts";
import { formatDuration } from "./format.ts";
import { HTML_SCRIPT, HTML_STYLE } from "./html-assets.ts";
import type { DefectVerdict, MutationReport } from "./mutation-report.ts";

const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";
const CLS: Readonly<Record<DefectVerdict, string>> = { "caught-precisely": "s-pass", caught: "s-known", escaped: "s-fail", error: "s-error" };
const LABEL: Readonly<Record<DefectVerdict, string>> = { "caught-precisely": "caught precisely", caught: "caught", escaped: "escaped", error: "error" };

export function renderMutationHtml(report: MutationReport): string {
  const s = report.summary;
  const card = (n: number, label: string, cls: string) => `<div class="card ${cls}" data-count="${h(label)}"><span class="n">${n}</span>${h(label)}</div>`;
  const passed = s.cleanFailures === 0 && !report.clean.error && s.escaped === 0 && s.errors === 0;
  const rows = report.defects
    .map(
      (d) =>
        `<tr data-status="${h(d.verdict)}"><td class="id">${h(d.name)}</td><td>${h(d.area)}</td><td class="${CLS[d.verdict]}">${h(LABEL[d.verdict])}</td>` +
        `<td class="id">${h(d.rule)}<blockquote>${h(d.spec)}</blockquote>${h(d.does)}</td>` +
        `<td class="id">${d.verdict === "error" ? h(d.error ?? "") : d.failing.length ? d.failing.map((r) => (r === d.rule ? `<strong>${h(r)}</strong>` : h(r))).join("<br>") : "(none)"}${d.scope === "rule" ? "<br><small>(its check alone)</small>" : ""}</td>` +
        `<td class="num">${h(formatDuration(d.wallTimeMs))}</td></tr>`,
    )
    .join("\n");
  const buttons = ["all", "caught-precisely", "caught", "escaped", "error"]
    .map((f) => `<button type="button" data-filter="${f}" aria-pressed="${f === "all"}">${h(f === "all" ? "all" : LABEL[f as DefectVerdict])}</button>`)
    .join("");
  const clean = report.clean.error
    ? `<p class="s-error">The clean run did not finish: ${h(report.clean.error)}</p>`
    : report.clean.failing.length
      ? `<p class="s-fail">The clean emulator failed ${report.clean.failing.length} rule(s): ${report.clean.failing.map((r) => `<code>${h(r)}</code>`).join(", ")}. The matrix cannot be trusted until it passes.</p>`
      : `<p class="s-pass">The clean emulator passed every rule (${h(formatDuration(report.clean.wallTimeMs))}).</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>cpsim mutation: ${s.caught}/${s.defects} caught</title>
<style>${HTML_STYLE}</style></head>
<body>
<h1>cpsim mutation <span class="verdict ${passed ? "s-pass" : "s-fail"}">${passed ? "EVERY DEFECT CAUGHT" : "DEFECTS ESCAPED"}</span></h1>
<dl class="meta"><dt>seed</dt><dd>${report.seed}</dd><dt>profile</dt><dd>${h(report.profile)}</dd><dt>workers</dt><dd>${report.workers}</dd><dt>started</dt><dd>${h(report.startedAt)}</dd><dt>wall time</dt><dd>${h(formatDuration(report.wallTimeMs))}</dd><dt>tool</dt><dd>${h(report.tool.name)} ${h(report.tool.version)}</dd></dl>
<h2>Score</h2>
<div class="cards">${card(s.defects, "defects", "")}${card(s.caught, "caught", "s-known")}${card(s.precise, "caught precisely", "s-pass")}${card(s.escaped, "escaped", "s-fail")}${s.errors ? card(s.errors, "did not finish", "s-error") : ""}</div>
<h2>Clean run</h2>
${clean}
<h2>Defects</h2>
<p>A defect is caught when at least one rule fails against it, and caught precisely when the rule it breaks is among them (in bold).${report.complete ? "" : " The check of the rule a defect breaks runs first, alone; when it fails the defect is caught precisely and nothing else runs (marked “its check alone”), otherwise the whole suite runs. <code>--complete</code> runs the whole suite against every defect."}</p>
<div class="filters">${buttons}</div>
<table id="rules"><thead><tr><th>defect</th><th>area</th><th>verdict</th><th>breaks</th><th>caught by</th><th>time</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<h2>Rules no defect breaks (${report.unexercisedRules.length})</h2>
<ul id="unexercised">${report.unexercisedRules.map((r) => `<li><code>${h(r.id)}</code> ${h(r.title)}</li>`).join("")}</ul>
<script>${HTML_SCRIPT}</script>
</body></html>
`;
}
