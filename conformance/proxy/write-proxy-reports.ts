/**
 * The proxy's report files: report.json and report.html hold every finding of both sides;
 * junit.xml (and the --junit copy) follows --fail-on, as the exit code does: a rule fails there
 * only by the findings of the sides the gate counts, and a rule whose findings are all of the
 * other side passes, its reason saying how many were left out and where they are.
 */
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { summarize, type ConformanceReport, type RuleResult } from "../../reports/conformance-report.ts";
import { renderHtmlReport } from "../../reports/html-report.ts";
import { renderJsonReport } from "../../reports/json-report.ts";
import { renderJUnit } from "../../reports/junit.ts";
import type { WrittenReports } from "../../reports/write-reports.ts";
import { gatedSides } from "./exit-code.ts";
import type { FailOn } from "./options.ts";

/** The report as the gate sees it: failures of the sides --fail-on does not count are left out. */
export function gatedReport(report: ConformanceReport, failOn: FailOn): ConformanceReport {
  const sides = gatedSides(failOn);
  const rules = report.rules.map((r): RuleResult => {
    if (r.status !== "fail") return r;
    const counted = r.failures.filter((f) => sides.includes(f.side ?? "target"));
    if (counted.length === r.failures.length) return r;
    const left = r.failures.length - counted.length;
    const note = `${left}${r.reason ? "+" : ""} finding(s) of a side --fail-on ${failOn} does not count (see report.json)`;
    if (counted.length > 0) return { ...r, failures: counted, reason: note };
    return { ...r, status: "pass", failures: [], reason: note };
  });
  return { ...report, rules, summary: summarize(rules, report.targetErrors.length) };
}

async function write(path: string, text: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  // Written beside and renamed over: a proxy killed mid-write leaves the previous file whole.
  const partial = `${path}.partial`;
  await writeFile(partial, text, "utf8");
  await rename(partial, path);
  return path;
}

export async function writeProxyReports(report: ConformanceReport, options: { readonly dir: string; readonly junit?: string; readonly failOn: FailOn }): Promise<WrittenReports> {
  const dir = resolve(options.dir);
  const junitXml = renderJUnit(gatedReport(report, options.failOn));
  const written = {
    json: await write(join(dir, "report.json"), renderJsonReport(report)),
    junit: await write(join(dir, "junit.xml"), junitXml),
    html: await write(join(dir, "report.html"), renderHtmlReport(report)),
  };
  if (options.junit === undefined) return written;
  return { ...written, extraJunit: await write(resolve(options.junit), junitXml) };
}
