/**
 * `npm run bench:load`: the load generator's own ceiling on this machine, against a bare
 * node:http server in a child process (so the figure is the generator's, not a server's):
 *   1. closed model (autocannon, as `cpsim load` runs it, checks included): requests/s;
 *   2. open model: the highest arrival rate it holds with under 1% of requests sent late,
 *      stepping up from half the closed ceiling; and the p99 at half the closed ceiling;
 *   3. wrk (Debian's `wrk`), when installed, against the same server: the reference.
 * Last line: load_closed_rps=N load_open_max_rate=M wrk_rps=W generator_vs_wrk=R p99_us_at_half_load=P
 * (targets: R >= 0.8; the open model holds at least half the closed ceiling).
 * Options: --duration S (per measurement, default 10) --connections N (default 16).
 */
import { execFile } from "node:child_process";
import { access, constants } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { runClosed } from "../closed-model.ts";
import { runOpen } from "../open-model.ts";
import type { PreparedScenario } from "../prepare-requests.ts";
import type { Scenario } from "../scenario.ts";
import { ScenarioStats } from "../scenario-stats.ts";
import { startTestServer } from "../test-server-process.ts";

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const n = Number(process.argv[i + 1]);
  if (!Number.isFinite(n) || n <= 0 || n > 3600) throw new Error(`--${name} must be a number in (0, 3600], got ${process.argv[i + 1]}`);
  return n;
}

const durationS = option("duration", 10);
const connections = option("connections", 16);
const scenario: Scenario = {
  name: "bench",
  description: "GET / of a bare node:http server",
  requests: [{ name: "get", method: "GET", host: "base", path: "/" }],
  checks: [{ name: "status is 200", kind: "status", in: [200] }],
  thresholds: {},
  defaults: { durationS, connections, maxRequests: 100_000_000 },
};

async function which(cmd: string): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? "").split(delimiter).filter(Boolean)) {
    try {
      await access(join(dir, cmd), constants.X_OK);
      return join(dir, cmd);
    } catch {
      // Not here.
    }
  }
  return undefined;
}

async function main(): Promise<void> {
  const server = await startTestServer("plain");
  const prepared: PreparedScenario = { origin: server.url, key: "", requests: [{ name: "get", method: "GET", path: "/", headers: { accept: "application/json" } }] };
  const bounds = { durationS, maxRequests: 100_000_000, connections, pipelining: 1, timeoutS: 10 };
  try {
    console.log(`bench:load duration=${durationS}s connections=${connections} node=${process.version} server=${server.url} (bare node:http, child process)`);
    // Warm-up: JIT and connections, not measured.
    await runClosed(prepared, new ScenarioStats(scenario), { ...bounds, durationS: Math.min(2, durationS) });

    const closed = new ScenarioStats(scenario);
    const t0 = performance.now();
    await runClosed(prepared, closed, bounds);
    const closedRps = closed.responses / ((performance.now() - t0) / 1000);
    console.log(`closed model (autocannon, ${connections} connections): ${Math.round(closedRps)} req/s, p99 ${closed.latency().p99Us} µs`);

    const openRun = async (rate: number, seconds: number): Promise<{ held: boolean; lateFraction: number; p99Us: number; achieved: number }> => {
      const stats = new ScenarioStats(scenario);
      const start = performance.now();
      await runOpen(prepared, stats, { ...bounds, durationS: seconds }, rate);
      const sent = stats.responses + stats.totalErrors();
      const lateFraction = sent > 0 ? (stats.late + stats.unsent) / (sent + stats.unsent) : 1;
      const achieved = stats.responses / ((performance.now() - start) / 1000);
      const r = { held: lateFraction < 0.01 && stats.totalErrors() === 0, lateFraction, p99Us: stats.latency().p99Us, achieved };
      console.log(`open model at ${Math.round(rate)} req/s: ${(lateFraction * 100).toFixed(2)}% late, p99 ${r.p99Us} µs, ${Math.round(achieved)} answered/s${r.held ? "" : " (not held)"}`);
      stats.destroy();
      return r;
    };
    const half = await openRun(closedRps / 2, durationS);
    // From half the closed ceiling: up by 25% while it holds, else down by a third until it does.
    let maxRate = half.held ? closedRps / 2 : 0;
    const stepS = Math.max(2, durationS / 3);
    if (half.held) {
      for (let rate = (closedRps / 2) * 1.25; rate <= closedRps * 1.5; rate *= 1.25) {
        if (!(await openRun(rate, stepS)).held) break;
        maxRate = rate;
      }
    } else {
      for (let rate = closedRps / 3; rate >= 100 && maxRate === 0; rate /= 1.5) if ((await openRun(rate, stepS)).held) maxRate = rate;
    }

    let wrkRps: number | undefined;
    const wrk = await which("wrk");
    if (wrk) {
      const out = await new Promise<string>((resolve) => {
        execFile(wrk, ["-t2", `-c${connections}`, `-d${Math.ceil(durationS)}s`, `${server.url}/`], { timeout: (durationS + 30) * 1000 }, (_err, stdout) => resolve(stdout));
      });
      const m = /Requests\/sec:\s+([\d.]+)/.exec(out);
      wrkRps = m ? Number(m[1]) : undefined;
      console.log(`wrk -t2 -c${connections}: ${wrkRps ?? "unreadable output"} req/s`);
    } else {
      process.stderr.write("wrk is not installed: wrk_rps=n/a. Install it with `apt-get install -y wrk` (Debian/Ubuntu) or `brew install wrk` to compare the generator with it.\n");
    }
    const ratio = wrkRps ? (closedRps / wrkRps).toFixed(2) : "n/a";
    console.log(
      `load_closed_rps=${Math.round(closedRps)} load_open_max_rate=${Math.round(maxRate)} wrk_rps=${wrkRps !== undefined ? Math.round(wrkRps) : "n/a"} generator_vs_wrk=${ratio} p99_us_at_half_load=${half.p99Us}`,
    );
    closed.destroy();
  } finally {
    await server.stop();
  }
}

await main();
