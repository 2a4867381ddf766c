/** Writes mutation.json and mutation.html into one folder (by default `reports/mutation/`). */
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { renderMutationHtml } from "./mutation-html.ts";
import type { MutationReport } from "./mutation-report.ts";

export interface WrittenMutationReports {
  readonly json: string;
  readonly html: string;
}

export async function writeMutationReports(report: MutationReport, dir: string): Promise<WrittenMutationReports> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  const json = join(root, "mutation.json");
  const html = join(root, "mutation.html");
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`, "utf8");
  await writeFile(html, renderMutationHtml(report), "utf8");
  return { json, html };
}
