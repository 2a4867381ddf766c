/**
 * `cpsim load --sweep-connections 1,2,4,8,16`: the selected scenarios once per connection count
 * (each run's reports in DIR/c<N>/), then the Universal Scalability Law fitted to each scenario's
 * throughput by concurrency: its parameters, predicted peak and residuals, in DIR/usl.json.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { defaultReportDir } from "../reports/index.ts";
import { renderUslText } from "../sim/plan/calibrate/text.ts";
import { fitUsl, type UslFit } from "../sim/plan/calibrate/usl.ts";
import { load, type LoadDeps, type LoadResult } from "./load.ts";
import { LoadConfigError, type LoadOptions } from "./options.ts";

export interface SweepResult {
  readonly exitCode: number;
  readonly runs: ReadonlyArray<{ readonly connections: number; readonly result: LoadResult }>;
  readonly usl: ReadonlyArray<{ readonly scenario: string; readonly fit: UslFit | null; readonly reason?: string }>;
}

export function parseConnectionList(text: string): number[] {
  const values = text.split(",").map((x) => x.trim()).filter((x) => x !== "").map(Number);
  if (values.length < 3 || values.some((v) => !Number.isInteger(v) || v < 1 || v > 10_000)) {
    throw new LoadConfigError(`--sweep-connections ${text}: give 3 or more whole numbers from 1 to 10000, for example 1,2,4,8,16`);
  }
  return [...new Set(values)].sort((a, b) => a - b);
}

export async function sweepConnections(options: Partial<LoadOptions>, counts: readonly number[], deps: LoadDeps = {}): Promise<SweepResult> {
  const dir = resolve(options.reportDir ?? defaultReportDir("load"));
  const say = deps.io?.stdout ?? ((t: string) => process.stdout.write(t));
  const err = deps.io?.stderr ?? ((t: string) => process.stderr.write(t));
  // With --json, stdout carries only the fit: each run's table goes to stderr.
  const runDeps: LoadDeps = options.json === true ? { ...deps, io: { stdout: err, stderr: err } } : deps;
  const runs: Array<{ connections: number; result: LoadResult }> = [];
  let exitCode = 0;
  for (const n of counts) {
    const result = await load({ ...options, connections: n, reportDir: join(dir, `c${n}`), json: false }, runDeps);
    runs.push({ connections: n, result });
    if (result.exitCode === 2) return { exitCode: 2, runs, usl: [] };
    exitCode = Math.max(exitCode, result.exitCode);
  }
  const names = [...new Set(runs.flatMap((r) => (r.result.report?.scenarios ?? []).map((s) => s.name)))];
  const usl = names.map((scenario) => {
    const points = runs.flatMap((r) => (r.result.report?.scenarios ?? []).filter((s) => s.name === scenario && s.skipped === undefined).map((s) => ({ concurrency: r.connections, throughput: s.rps })));
    try {
      return { scenario, fit: fitUsl(points) };
    } catch (err) {
      return { scenario, fit: null, reason: (err as Error).message };
    }
  });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "usl.json"), JSON.stringify({ connections: counts, usl }, null, 2) + "\n", "utf8");
  const text = usl.map((u) => `${u.scenario}: ${u.fit !== null ? renderUslText(u.fit) : `no USL fit: ${u.reason}\n`}`).join("");
  if (options.json === true) say(JSON.stringify({ connections: counts, usl }, null, 2) + "\n");
  else say(`\n${text}wrote ${join(dir, "usl.json")}\n`);
  return { exitCode, runs, usl };
}
