/**
 * `cpsim load --sweep-connections 1,2,4,8,16`: the selected scenarios at each connection count,
 * interleaved (interleaved-rounds.ts: round-robin over several short rounds, so that the machine's
 * load drift and the target's warm-up hit every count alike), then the Universal Scalability Law
 * fitted to each scenario's median throughput by concurrency, weighted by the rounds' spread: its
 * parameters, predicted peak and residuals, in DIR/usl.json.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { defaultReportDir } from "../reports/index.ts";
import { renderUslText } from "../sim/plan/calibrate/text.ts";
import { fitUsl, type UslFit } from "../sim/plan/calibrate/usl.ts";
import { measureInterleaved, type InterleavedRun, type RoundOptions } from "./interleaved-rounds.ts";
import type { LoadDeps } from "./load.ts";
import { LoadConfigError, type LoadOptions } from "./options.ts";

export interface SweepResult {
  readonly exitCode: number;
  readonly runs: readonly InterleavedRun[];
  readonly usl: ReadonlyArray<{ readonly scenario: string; readonly fit: UslFit | null; readonly reason?: string }>;
}

export function parseConnectionList(text: string): number[] {
  const values = text.split(",").map((x) => x.trim()).filter((x) => x !== "").map(Number);
  if (values.length < 3 || values.some((v) => !Number.isInteger(v) || v < 1 || v > 10_000)) {
    throw new LoadConfigError(`--sweep-connections ${text}: give 3 or more whole numbers from 1 to 10000, for example 1,2,4,8,16`);
  }
  return [...new Set(values)].sort((a, b) => a - b);
}

export async function sweepConnections(options: Partial<LoadOptions>, counts: readonly number[], deps: LoadDeps = {}, rounds: Partial<RoundOptions> = {}): Promise<SweepResult> {
  const dir = resolve(options.reportDir ?? defaultReportDir("load"));
  const say = deps.io?.stdout ?? ((t: string) => process.stdout.write(t));
  const err = deps.io?.stderr ?? ((t: string) => process.stderr.write(t));
  // With --json, stdout carries only the fit: each run's table goes to stderr.
  const runDeps: LoadDeps = options.json === true ? { ...deps, io: { stdout: err, stderr: err } } : deps;
  const measured = await measureInterleaved({ ...options, reportDir: dir }, counts, rounds, runDeps);
  if (measured.exitCode === 2) return { exitCode: 2, runs: measured.runs, usl: [] };
  const usl = measured.scenarios.map(({ scenario, points }) => {
    try {
      return { scenario, fit: fitUsl(points) };
    } catch (e) {
      return { scenario, fit: null, reason: (e as Error).message };
    }
  });
  const summary = { connections: counts, rounds: measured.rounds, runSeconds: measured.runSeconds, warmup: measured.warmup, method: measured.method, usl };
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "usl.json"), JSON.stringify(summary, null, 2) + "\n", "utf8");
  const text = usl.map((u) => `${u.scenario}: ${u.fit !== null ? renderUslText(u.fit) : `no USL fit: ${u.reason}\n`}`).join("");
  if (options.json === true) say(JSON.stringify(summary, null, 2) + "\n");
  else say(`\n${measured.method}\n${text}wrote ${join(dir, "usl.json")}\n`);
  return { exitCode: measured.exitCode, runs: measured.runs, usl };
}
