/**
 * `npm run soak [-- --seconds S --windows N --seed N]`: starts `cpsim serve` as a child process,
 * measures its maximum throughput on a mix of reads, job submissions and health checks
 * (autocannon, 5 s), then holds it at 80% of that for S seconds (default 60) in N windows and
 * prints `soak_errors=E p99_drift=D rss_drift_mb=M` last: errors of any kind, the last window's
 * p99 latency over the first's, and the server's RSS at the end minus after the first window.
 * Jobs are kept 30 virtual minutes; at --speed 120 that is 15 s of wall time, so results expire
 * within the run and the RSS should stay flat. Then the stall phase (stall-workloads.ts): image
 * jobs, uploads and big result reads while a health canary is timed; its p99 is printed too
 * (`--no-stalls` skips the phase; `--no-hold` runs it alone, on a fresh server).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import { type CommandSpec, parseArgs, processIo, renderHelp, UsageError } from "../../cli/args.ts";
import { p99, stallWorkloads } from "./stall-workloads.ts";

const spec: CommandSpec = {
  name: "soak",
  summary: "Hold the emulator at 80% of its measured maximum for a bounded time; report errors, p99 drift and RSS drift",
  usage: "npm run soak -- [--seconds S] [--windows N] [--connections N] [--no-stalls] [--no-hold]",
  description: "Prints soak_errors=E p99_drift=D rss_drift_mb=M canary_p99_ms=C last; targets E = 0, a flat RSS and C under 100 ms.",
  flags: [
    { name: "seconds", type: "integer", value: "S", help: "How long to hold the load", default: 60, min: 6, max: 86_400 },
    { name: "windows", type: "integer", value: "N", help: "Windows the hold is measured in", default: 6, min: 2, max: 1000 },
    { name: "connections", type: "integer", value: "N", help: "Connections autocannon keeps open", default: 32, min: 1, max: 1024 },
    { name: "stalls", type: "boolean", help: "Run the stall phase (image jobs, uploads, big reads under a health canary); --no-stalls skips it", default: true },
    { name: "hold", type: "boolean", help: "Measure the maximum and hold 80% of it first; --no-hold runs the stall phase alone", default: true },
    { name: "state", type: "boolean", help: "Serve with --state (a fresh directory, removed after): every change is journaled and synced before its answer", default: false },
  ],
  examples: ["npm run soak", "npm run soak -- --seconds 600", "npm run soak -- --no-hold", "npm run soak -- --no-hold --state"],
};

const KEY = "Bearer cpsim_load_exempt_5b0e8d3a6c1f9247";
const REQUESTS = [
  { method: "GET", path: "/v2/catalog/cpus", headers: { authorization: KEY } },
  { method: "POST", path: "/v2/conformance/run", headers: { authorization: KEY, "content-type": "application/json" }, body: JSON.stringify({ input: { op: "bytes", n: 2000 } }) },
  { method: "GET", path: "/v2/conformance/health", headers: { authorization: KEY } },
  { method: "GET", path: "/v2/pods", headers: { authorization: KEY } },
] as const;

function stop(child: ReturnType<typeof spawn>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : 0;
}

function cannon(url: string, seconds: number, connections: number, overallRate?: number): Promise<autocannon.Result> {
  return autocannon({ url, duration: seconds, connections, requests: REQUESTS as unknown as autocannon.Request[], ...(overallRate ? { overallRate } : {}) });
}

async function main(): Promise<number> {
  const parsed = parseArgs(spec, process.argv.slice(2));
  if (parsed.help) {
    processIo.stdout(renderHelp(spec));
    return 0;
  }
  const { seconds, windows, connections } = parsed.flags as { seconds: number; windows: number; connections: number };
  const hold = parsed.flags.hold !== false;
  const stalls = parsed.flags.stalls !== false;
  if (!hold && !stalls) throw new UsageError("--no-hold and --no-stalls leave nothing to run");
  const stateDir = parsed.flags.state === true ? mkdtempSync(join(tmpdir(), "cpsim-soak-state-")) : undefined;
  const serveArgs = ["bin/cpsim.js", "serve", "--json", "--speed", "120", "--control-token", "none", "--results-budget-mb", "1024", ...(stateDir ? ["--state", stateDir] : [])];
  const child = spawn(process.execPath, [...(process.env.CPSIM_SOAK_PROF ? ["--cpu-prof", "--cpu-prof-dir", process.env.CPSIM_SOAK_PROF] : []), ...serveArgs], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", (l) => resolve(JSON.parse(l).baseUrl as string));
      child.once("exit", (code) => reject(new Error(`cpsim serve exited ${code}`)));
    });
    let errors = 0;
    let held = "";
    if (hold) {
      const max = await cannon(url, 5, connections);
      const target = Math.max(1, Math.floor(max.requests.average * 0.8));
      processIo.stderr(`soak: max ${Math.round(max.requests.average)} req/s; holding ${target} req/s for ${seconds} s in ${windows} windows\n`);
      const p99s: number[] = [];
      const rss: number[] = [];
      const windowSeconds = Math.max(1, Math.floor(seconds / windows));
      for (let w = 0; w < windows; w++) {
        const r = await cannon(url, windowSeconds, connections, target);
        errors += r.errors + r.timeouts + r.non2xx;
        p99s.push(r.latency.p99);
        rss.push(rssMb(child.pid!));
        processIo.stderr(`soak: window ${w + 1}: ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms, errors ${r.errors + r.timeouts + r.non2xx}, server RSS ${rss[w]!.toFixed(0)} MB\n`);
      }
      const drift = p99s[p99s.length - 1]! / Math.max(1, p99s[0]!);
      held = ` p99_drift=${drift.toFixed(2)} rss_drift_mb=${Math.round(rss[rss.length - 1]! - rss[0]!)}`;
    }
    let canary = "";
    if (stalls) {
      let worst = 0;
      const all: number[] = [];
      for (const r of await stallWorkloads(url)) {
        errors += r.errors;
        worst = Math.max(worst, r.canaryP99Ms);
        all.push(...r.canaryLatencies);
        processIo.stderr(`soak: stalls: ${r.name}: canary p99 ${r.canaryP99Ms.toFixed(0)} ms, max ${r.canaryMaxMs.toFixed(0)} ms over ${r.canaryRequests} requests; ${r.note}; errors ${r.errors}\n`);
      }
      processIo.stderr(`soak: stalls: all workloads: canary p99 ${p99(all).toFixed(0)} ms over ${all.length} requests; the worst workload's p99 ${worst.toFixed(0)} ms\n`);
      canary = ` canary_p99_ms=${worst.toFixed(0)}`;
    }
    const line = `soak_errors=${errors}${held}${canary}\n`;
    await stop(child);
    // The figure line comes last, after the server's own goodbye.
    processIo.stdout(line);
    return errors > 0 ? 1 : 0;
  } finally {
    await stop(child);
    if (stateDir !== undefined) rmSync(stateDir, { recursive: true, force: true });
  }
}

try {
  process.exitCode = await main();
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  processIo.stderr(`soak: ${err.message}\n`);
  process.exitCode = 2;
}
