/** Writes report.json and report.html of a `cpsim load` run into one folder (reports/load by default). */
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { renderLoadHtml } from "./load-html.ts";
import type { LoadReport } from "./load-report.ts";

export function renderLoadJson(report: LoadReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

export async function writeLoadReports(report: LoadReport, dir: string): Promise<{ json: string; html: string }> {
  const out = resolve(dir);
  await mkdir(out, { recursive: true });
  const json = join(out, "report.json");
  const html = join(out, "report.html");
  await writeFile(json, renderLoadJson(report), "utf8");
  await writeFile(html, await renderLoadHtml(report), "utf8");
  return { json, html };
}
