/**
 * JUnit XML, the format CI systems read: one testcase per rule. A failed rule carries one
 * failure element with every failure's evidence; a skipped or known rule a skipped element with
 * its reason (a known failure is accepted by the baseline, so it must not turn CI red); a rule
 * interrupted by a target error an error element, which CI shows apart from failures.
 */
import type { ConformanceReport, RuleResult } from "./conformance-report.ts";
import { escapeXml } from "./escape.ts";
import { failureText } from "./failure-text.ts";
import { verdict } from "./verdict.ts";

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function classname(id: string): string {
  const dot = id.lastIndexOf(".");
  return dot > 0 ? id.slice(0, dot) : id;
}

function testcase(rule: RuleResult, report: ConformanceReport): string {
  const open = `    <testcase classname="${escapeXml(classname(rule.id))}" name="${escapeXml(rule.id)}" time="${seconds(rule.durationMs)}">`;
  const inner: string[] = [];
  const errors = report.targetErrors.filter((e) => e.ruleId === rule.id);
  if (rule.status === "fail") {
    const message = `${rule.failures.length} failure(s): ${rule.failures[0]?.evidence.expected ?? rule.title}`;
    const text = rule.failures.map(failureText).join("\n\n----\n\n");
    inner.push(`      <failure message="${escapeXml(message)}" type="${escapeXml(rule.severity)}">${escapeXml(text)}</failure>`);
  } else if (errors.length > 0) {
    const text = errors.map((e) => `${e.code}: ${e.message}${e.request ? `\n${e.request.method} ${e.request.url}` : ""}`).join("\n");
    inner.push(`      <error message="${escapeXml(errors[0].message)}" type="${escapeXml(errors[0].code)}">${escapeXml(text)}</error>`);
  } else if (rule.status === "skip" || rule.status === "known") {
    const reason = rule.reason ?? (rule.status === "known" ? "known failure (in the baseline)" : "skipped");
    inner.push(`      <skipped message="${escapeXml(reason)}"/>`);
  }
  inner.push(`      <system-out>${escapeXml(`spec: ${rule.spec}`)}</system-out>`);
  return [open, ...inner, "    </testcase>"].join("\n");
}

export function renderJUnit(report: ConformanceReport): string {
  const rules = report.rules;
  const failures = rules.filter((r) => r.status === "fail").length;
  const errored = new Set(report.targetErrors.map((e) => e.ruleId));
  const errors = rules.filter((r) => r.status !== "fail" && errored.has(r.id)).length;
  const skipped = rules.filter((r) => (r.status === "skip" || r.status === "known") && !errored.has(r.id)).length;
  const counts = `tests="${rules.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(report.wallTimeMs)}"`;
  const properties = [
    ["target", report.target],
    ["serverless-url", report.serverlessUrl],
    ["seed", String(report.seed)],
    ["profile", report.profile],
    // The verdict with how much was judged, so a thin run never reads as a full one in CI.
    ["verdict", verdict(report).text],
    ...(report.baseline ? [["baseline", report.baseline]] : []),
  ].map(([k, v]) => `      <property name="${escapeXml(k)}" value="${escapeXml(v)}"/>`);
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="cpsim conform" ${counts}>`,
    `  <testsuite name="${escapeXml(`cpsim conform ${report.target}`)}" ${counts} timestamp="${escapeXml(report.startedAt)}">`,
    "    <properties>",
    ...properties,
    "    </properties>",
    ...rules.map((r) => testcase(r, report)),
    `    <system-out>${escapeXml(verdict(report).text)}</system-out>`,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
