/**
 * Writes a run's report files: report.json, junit.xml and report.html into one folder (by
 * default `reports/<command>/` under the working directory), plus a JUnit copy wherever CI
 * wants it. Folders are created as needed; the paths written are returned for the summary.
 */
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { ConformanceReport } from "./conformance-report.ts";
import { renderHtmlReport } from "./html-report.ts";
import { renderJsonReport } from "./json-report.ts";
import { renderJUnit } from "./junit.ts";

export interface WriteReportsOptions {
  /** The folder for all three files. */
  readonly dir: string;
  /** A further path for the JUnit XML, e.g. where CI collects test results. */
  readonly junit?: string;
  /** The report the JUnit files render, when a gate counts less than the whole (the proxy's --fail-on); default the report. */
  readonly junitReport?: ConformanceReport;
}

export interface WrittenReports {
  readonly json: string;
  readonly junit: string;
  readonly html: string;
  readonly extraJunit?: string;
}

/** `reports/<command>/` under `cwd`: the default output folder of every command. */
export function defaultReportDir(command: string, cwd: string = process.cwd()): string {
  return resolve(cwd, "reports", command);
}

async function write(path: string, text: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  // Written beside and renamed over: a process killed mid-write leaves the previous file whole.
  const partial = `${path}.partial`;
  await writeFile(partial, text, "utf8");
  await rename(partial, path);
  return path;
}

export async function writeConformanceReports(report: ConformanceReport, options: WriteReportsOptions): Promise<WrittenReports> {
  const dir = resolve(options.dir);
  const junitXml = renderJUnit(options.junitReport ?? report);
  const written = {
    json: await write(join(dir, "report.json"), renderJsonReport(report)),
    junit: await write(join(dir, "junit.xml"), junitXml),
    html: await write(join(dir, "report.html"), renderHtmlReport(report)),
  };
  if (options.junit === undefined) return written;
  return { ...written, extraJunit: await write(resolve(options.junit), junitXml) };
}
