/** Writes a plan's files into one folder: plan.json, plan.csv and report.html. */
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { renderPlanCsv } from "./plan-csv.ts";
import { renderPlanHtml } from "./plan-html.ts";
import type { PlanReport } from "./plan-report.ts";

export interface WrittenPlanReports {
  readonly json: string;
  readonly csv: string;
  readonly html: string;
}

/** The plan as JSON text: stable key order and numbers, so equal plans give equal bytes. */
export function renderPlanJson(r: PlanReport): string {
  return JSON.stringify(r, null, 2) + "\n";
}

export async function writePlanReports(r: PlanReport, dir: string): Promise<WrittenPlanReports> {
  const out = resolve(dir);
  await mkdir(out, { recursive: true });
  const json = join(out, "plan.json");
  const csv = join(out, "plan.csv");
  const html = join(out, "report.html");
  await writeFile(json, renderPlanJson(r), "utf8");
  await writeFile(csv, renderPlanCsv(r), "utf8");
  await writeFile(html, await renderPlanHtml(r), "utf8");
  return { json, csv, html };
}
