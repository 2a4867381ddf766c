/**
 * The self-contained HTML report, in the order people read it: the verdict ("PASSED (n of m
 * rules judged)") and summary, then the failures with their curl reproductions, then every rule
 * grouped by area (the rule id on one line), then coverage and target errors. Every value is escaped: bodies and headers come
 * from the target under test, which may send markup or script on purpose or by accident.
 */
import type { ConformanceReport, RecordedRequest, ReportFailure, RuleResult, TargetErrorRecord } from "./conformance-report.ts";
import { escapeHtml as h } from "./escape.ts";
import { describeBody } from "./failure-text.ts";
import { formatDuration, requestsPerSecond } from "./format.ts";
import { HTML_SCRIPT, HTML_STYLE } from "./html-assets.ts";
import { targetFactsSection } from "./target-facts-section.ts";
import { shadowSection } from "./shadow-section.ts";
import { verdict } from "./verdict.ts";

/** No network at all: only the inline style and script of the page itself may run. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

function badge(report: ConformanceReport): { text: string; cls: string } {
  const v = verdict(report);
  return { text: v.text, cls: v.kind === "pass" ? "s-pass" : v.kind === "fail" ? "s-fail" : "s-error" };
}

function meta(report: ConformanceReport): string {
  const rate = requestsPerSecond(report.requests, report.wallTimeMs).toFixed(1);
  const rows: [string, string][] = [
    ["target", report.target],
    ["serverless URL", report.serverlessUrl],
    ["seed", String(report.seed)],
    ["profile", report.profile],
    ["started", report.startedAt],
    ["wall time", formatDuration(report.wallTimeMs)],
    ["requests", `${report.requests} (${rate} requests/s)`],
    ["tool", `${report.tool.name} ${report.tool.version}`],
  ];
  if (report.baseline) rows.push(["baseline", report.baseline]);
  return `<dl class="meta">${rows.map(([k, v]) => `<dt>${h(k)}</dt><dd>${h(v)}</dd>`).join("")}</dl>`;
}

function summary(report: ConformanceReport): string {
  const s = report.summary;
  const card = (n: number, label: string, cls: string) =>
    `<div class="card ${cls}" data-count="${h(label)}"><span class="n">${n}</span>${h(label)}</div>`;
  return `<section id="summary"><h2>Summary</h2><div class="cards">${[
    card(s.passed, "passed", "s-pass"),
    card(s.failed, "failed", "s-fail"),
    card(s.skipped, "skipped", "s-skip"),
    card(s.known, "known", "s-known"),
    card(s.targetErrors, "target errors", "s-error"),
  ].join("")}</div></section>`;
}

function coverage(report: ConformanceReport): string {
  const c = report.coverage;
  const pct = c.rules.total > 0 ? Math.round((100 * c.rules.checked) / c.rules.total) : 0;
  const unchecked = c.rules.unchecked.length
    ? `<details><summary>${c.rules.unchecked.length} rules not checked</summary><ul>${c.rules.unchecked
        .map((id) => `<li><code>${h(id)}</code></li>`)
        .join("")}</ul></details>`
    : "";
  const machines = [...new Set(c.transitions.map((t) => t.machine))];
  const transitions = machines
    .map((m) => {
      const all = c.transitions.filter((t) => t.machine === m);
      const rows = all
        .map((t) => `<tr><td>${h(t.from)}</td><td>${h(t.to)}</td><td class="${t.exercised ? "s-pass" : "s-skip"}">${t.exercised ? "exercised" : "not exercised"}</td></tr>`)
        .join("");
      return `<h3>${h(m)} transitions: ${all.filter((t) => t.exercised).length} of ${all.length}</h3><table><thead><tr><th>from</th><th>to</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
    })
    .join("");
  return `<section id="coverage"><h2>Coverage</h2><p>${c.rules.checked} of ${c.rules.total} rules checked (${pct}%)${
    c.rules.selected !== undefined && c.rules.selected !== c.rules.total ? `; ${c.rules.selected} selected by --only/--skip` : ""
  }${c.rules.minCoverage !== undefined ? `; the run requires ${c.rules.minCoverage}% of the selected rules judged (--min-coverage)` : ""}</p><div class="bar"><span style="width:${pct}%"></span></div>${unchecked}${transitions}</section>`;
}

/** The area of a rule: the first segment of its id (pods, graphql, jobs, auth, ratelimit ...). */
const areaOf = (id: string): string => id.split(".")[0] ?? id;

function rulesTable(report: ConformanceReport): string {
  const row = (r: RuleResult) => {
    const note =
      r.status === "fail"
        ? `<a href="#failure-${h(r.id)}-0">${r.failures.length} failure(s)</a>`
        : h(r.reason ?? "");
    return `<tr data-status="${h(r.status)}"><td class="id">${h(r.id)}</td><td class="s-${h(r.status)}">${h(r.status)}</td><td class="num">${h(formatDuration(r.durationMs))}</td><td>${h(r.title)}</td><td>${note}</td></tr>`;
  };
  const filters = ["all", "fail", "known", "skip", "pass"]
    .map((f) => `<button type="button" data-filter="${f}" aria-pressed="${f === "all"}">${f}</button>`)
    .join("");
  const areas = [...new Set(report.rules.map((r) => areaOf(r.id)))];
  const groups = areas
    .map((area) => {
      const rules = report.rules.filter((r) => areaOf(r.id) === area);
      const counts = ["pass", "fail", "known", "skip"]
        .map((st) => [st, rules.filter((r) => r.status === st).length] as const)
        .filter(([, n]) => n > 0)
        .map(([st, n]) => `<span class="s-${st}">${n} ${st}</span>`)
        .join(", ");
      return `<h3 id="area-${h(area)}">${h(area)} <small>(${counts})</small></h3><table class="rules" data-area="${h(area)}"><thead><tr><th>rule</th><th>result</th><th>time</th><th>title</th><th>note</th></tr></thead><tbody>${rules
        .map(row)
        .join("")}</tbody></table>`;
    })
    .join("\n");
  return `<section id="rules-section"><h2>Rules by area</h2><p class="filters">${filters}</p><div id="rules">${groups}</div></section>`;
}

function headers(hs: Readonly<Record<string, string>>): string {
  return Object.entries(hs)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n");
}

function requestBlock(r: RecordedRequest): string {
  const body = describeBody(r.body);
  return `<pre class="request">${h(`${r.method} ${r.url}\n${headers(r.headers)}${body ? `\n\n${body}` : ""}`)}</pre>`;
}

function failureBlock(f: ReportFailure, index: number): string {
  const id = `failure-${f.ruleId}-${index}`;
  const got = f.evidence.got;
  const sequence = f.evidence.sequence?.length
    ? `<h4>Requests before it (${f.evidence.sequence.length})</h4>${f.evidence.sequence.map(requestBlock).join("")}`
    : "";
  const repro = [
    `<dt>seed</dt><dd>${h(f.reproduction.seed)}</dd>`,
    f.reproduction.path ? `<dt>path</dt><dd><code>${h(f.reproduction.path)}</code></dd>` : "",
    f.reproduction.command ? `<dt>command</dt><dd><code>${h(f.reproduction.command)}</code></dd>` : "",
  ].join("");
  return `<article class="failure" id="${h(id)}" data-rule="${h(f.ruleId)}">
<h3><code>${h(f.ruleId)}</code>: ${h(f.title)} <small class="s-fail">${h(f.severity)}</small></h3>
<blockquote class="spec">${h(f.spec)}</blockquote>
<h4>Expected</h4><p class="expected">${h(f.evidence.expected)}</p>
<h4>Got</h4><pre class="got">${h(`HTTP ${got.status}\n${headers(got.headers)}${got.body ? `\n\n${got.body}` : ""}`)}</pre>
<h4>Request</h4>${requestBlock(f.evidence.request)}${sequence}
<h4>Reproduction</h4><dl class="meta">${repro}</dl>
<button type="button" class="copy" data-target="${h(id)}-curl">copy</button><pre class="curl" id="${h(id)}-curl">${h(f.reproduction.curl)}</pre>
</article>`;
}

function failures(report: ConformanceReport): string {
  const all = report.rules.filter((r) => r.status === "fail");
  const known = report.rules.filter((r) => r.status === "known" && r.failures.length > 0);
  const blocks = (rules: RuleResult[]) => rules.map((r) => r.failures.map(failureBlock).join("\n")).join("\n");
  const main = all.length === 0 ? "<p>None.</p>" : blocks(all);
  // Known failures are accepted by the baseline but still real: shown, apart and folded.
  const old = known.length
    ? `<details id="known-failures"><summary>Known failures (in the baseline): ${known.length}</summary>${blocks(known)}</details>`
    : "";
  return `<section id="failures"><h2>Failures</h2>${main}${old}</section>`;
}

function targetErrors(errors: readonly TargetErrorRecord[]): string {
  if (errors.length === 0) return "";
  const rows = errors
    .map((e) => `<tr><td class="id">${h(e.ruleId ?? "")}</td><td>${h(e.code)}</td><td>${h(e.message)}</td><td>${e.request ? h(`${e.request.method} ${e.request.url}`) : ""}</td></tr>`)
    .join("");
  return `<section id="target-errors"><h2>Target errors</h2><p>Timeouts and connection errors: about the target, not verdicts on rules.</p><table><thead><tr><th>rule</th><th>code</th><th>message</th><th>request</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

export function renderHtmlReport(report: ConformanceReport): string {
  const v = badge(report);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>cpsim conformance: ${h(report.target)}</title>
<style>${HTML_STYLE}</style>
</head>
<body>
<header><h1>cpsim conformance report <span class="verdict ${v.cls}">${h(v.text)}</span></h1>${meta(report)}</header>
${summary(report)}
${failures(report)}
${rulesTable(report)}
${coverage(report)}
${shadowSection(report.shadow)}${targetFactsSection(report.targetFacts)}${targetErrors(report.targetErrors)}
<script>${HTML_SCRIPT}</script>
</body>
</html>
`;
}
