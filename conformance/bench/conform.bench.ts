/**
 * `npm run bench:conform`: how long a full lenient conformance run takes, four ways:
 *   1. against a real-time target: `cpsim serve --clock real --speed 15 --no-control` started as
 *      a child process on port 0 (pods reach RUNNING in about 3 s, jobs run in real time), with
 *      its three fixture keys; the run is bounded by --max-duration (default 600 s);
 *   2. against the embedded emulator (its own child process, manual clock).
 *   3. issue 32's stand-in for a real-time platform: pods from `cpsim serve --clock real --speed
 *      15` (RUNNING in about 3 s), jobs from a second `cpsim serve --clock real --speed 1` (the
 *      conformance handler's sleeps take real time) whose conformance endpoint runs two workers;
 *      both from one copy of the fixtures, so keys and endpoints are the same. The two servers
 *      count rate limits apart, so `ratelimit.remaining-decreases` (which reads remaining counts
 *      from both) is left out of that run.
 *   4. against a slower real-time target (issue 22.7): `cpsim serve --clock real --speed 9` (pods
 *      reach RUNNING in about 5 s) whose conformance endpoint runs one worker (workersMax 1, from
 *      a copy of the fixtures), also started as a child process.
 * Each timed around the whole conform() call (the embedded emulator's start included).
 * All with the same seed. Before the figures, the rules judged on the emulator but skipped on
 * the real-time target, each with its reason, every failure, and for runs 3 and 4 the critical
 * path (the area that ended last and its rules) and the slowest rules. Last line:
 *   conform_realtime_s=N conform_embedded_s=M realtime_requests_per_s=R rules_judged=K failures=F
 *   conform_realtime_two_workers_s=T conform_one_worker_s=W
 * (targets: N < 180, M < 10, F = 0, T <= 100, W <= 120). K is the real-time run's count of judged
 * rules; F counts the failed rules and target errors of every run. The exit code is 1 when F > 0.
 *
 * Options: --seed N (default 1) --max-duration S (default 600) --only realtime|embedded|two-workers|one-worker
 * (one of the runs alone, for a quick look; its figures only). CPSIM_BENCH_KEEP=1 keeps each
 * run's report.json and prints where.
 */
import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import "../checks/index.ts";
import { conform, type ConformResult } from "../conform.ts";
import { describeCriticalPath } from "../critical-path.ts";
import { startEmbedded } from "../embedded.ts";

interface ServeInfo {
  readonly baseUrl: string;
  readonly serverlessUrl: string;
  readonly apiKeys: readonly { key: string; account: string; access: string }[];
}

type RunName = "realtime" | "embedded" | "one-worker" | "two-workers";
const RUN_NAMES: readonly RunName[] = ["realtime", "embedded", "two-workers", "one-worker"];

function parse(argv: readonly string[]): { seed: number; maxDurationS: number; only?: RunName } {
  const o: { seed: number; maxDurationS: number; only?: RunName } = { seed: 1, maxDurationS: 600 };
  for (let i = 0; i < argv.length; i += 2) {
    if (argv[i] === "--only") {
      if (!RUN_NAMES.includes(argv[i + 1] as RunName)) throw new Error(`--only takes one of ${RUN_NAMES.join(", ")}, got ${argv[i + 1]}`);
      o.only = argv[i + 1] as RunName;
      continue;
    }
    const n = Number(argv[i + 1]);
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${argv[i]} takes a whole number, got ${argv[i + 1]}`);
    if (argv[i] === "--seed") o.seed = n;
    else if (argv[i] === "--max-duration") o.maxDurationS = n;
    else throw new Error(`unknown option ${argv[i]}`);
  }
  return o;
}

/** A copy of the built-in catalog whose conformance endpoint runs at most `workers` workers. */
async function workerFixtures(dir: string, workers: number): Promise<string> {
  const from = fileURLToPath(new URL("../../fixtures/catalog/", import.meta.url));
  const to = join(dir, `catalog-${workers}-workers`);
  await cp(from, to, { recursive: true });
  const file = join(to, "endpoints.json");
  const doc = JSON.parse(await readFile(file, "utf8")) as { endpoints: { id: string; workersMin: number; workersMax: number }[] };
  for (const e of doc.endpoints) if (e.id === "conformance") Object.assign(e, { workersMin: 0, workersMax: workers });
  await writeFile(file, JSON.stringify(doc, null, 1));
  return to;
}

async function startRealTimeServer(speed = 15, extra: readonly string[] = []): Promise<{ info: ServeInfo; stop: () => Promise<void> }> {
  const bin = fileURLToPath(new URL("../../bin/cpsim.js", import.meta.url));
  const child = spawn(process.execPath, [bin, "serve", "--clock", "real", "--speed", String(speed), "--no-control", "--port", "0", "--json", ...extra], { stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("cpsim serve printed nothing within 60 s")), 60_000);
    lines.once("line", (l) => (clearTimeout(timer), resolve(l)));
    child.once("exit", (code) => reject(new Error(`cpsim serve exited with ${code}`)));
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  return { info: JSON.parse(first) as ServeInfo, stop };
}

const keyOf = (info: ServeInfo, account: string, access: string) => info.apiKeys.find((k) => k.account === account && k.access === access)?.key;

function line(name: string, r: ConformResult): string {
  const { report } = r;
  const s = report.summary;
  return `${name}: ${(report.wallTimeMs / 1000).toFixed(1)} s, ${report.requests} requests, ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, exit ${r.exitCode}, ${report.coverage.rules.checked} rules judged`;
}

/**
 * Rules the two-server stand-in cannot judge: its pods and its jobs are two emulators, each
 * counting the keys' rate-limit windows apart, so remaining counts read from both interleave.
 */
const SPLIT_TARGET_SKIPS = ["ratelimit.remaining-decreases"];

/** Where the run's time went: the critical path (the area that ended last and its rules), and the slowest rules. */
function criticalPathLine(r: ConformResult): string {
  const path = r.report.criticalPath;
  const slow = [...r.report.rules].sort((a, b) => b.durationMs - a.durationMs).slice(0, 6);
  return `${path ? describeCriticalPath(path) : "no critical path (no rule ran)"}\n  slowest rules: ${slow.map((x) => `${x.id} ${(x.durationMs / 1000).toFixed(1)} s`).join(", ")}`;
}

/**
 * A full lenient run against a real-time `cpsim serve`, timed around the whole call. With `jobs`,
 * the job endpoints are another server's (same fixtures, so the same keys and endpoints).
 */
async function realTimeRun(
  o: { seed: number; maxDurationS: number },
  dir: string,
  name: string,
  speed: number,
  extra: readonly string[] = [],
  jobs?: { speed: number; extra: readonly string[] },
): Promise<{ result: ConformResult; seconds: number }> {
  const server = await startRealTimeServer(speed, extra);
  const jobServer = jobs ? await startRealTimeServer(jobs.speed, jobs.extra).catch(async (err: unknown) => (await server.stop(), Promise.reject(err))) : undefined;
  try {
    const { info } = server;
    const started = Date.now();
    const result = await conform(
      {
        target: info.baseUrl,
        serverlessUrl: (jobServer?.info ?? info).serverlessUrl,
        apiKey: keyOf(info, "acct-alpha", "full"),
        restrictedApiKey: keyOf(info, "acct-alpha", "read-only"),
        otherApiKey: keyOf(info, "acct-beta", "full"),
        seed: o.seed,
        maxDurationS: o.maxDurationS,
        ...(jobServer ? { skip: [...SPLIT_TARGET_SKIPS] } : {}),
        quiet: true,
        reportDir: join(dir, name),
      },
      { controlApi: false },
    );
    return { result, seconds: (Date.now() - started) / 1000 };
  } finally {
    await Promise.all([server.stop(), jobServer?.stop()]);
  }
}

async function main(): Promise<void> {
  const o = parse(process.argv.slice(2));
  const wanted = (name: RunName) => o.only === undefined || o.only === name;
  const dir = await mkdtemp(join(tmpdir(), "cpsim-bench-conform-"));
  try {
    const runs: [string, ConformResult][] = [];
    const figures: string[] = [];
    let realtime: ConformResult | undefined;
    if (wanted("realtime")) {
      const r = await realTimeRun(o, dir, "realtime", 15);
      realtime = r.result;
      runs.push(["real-time", r.result]);
      console.log(line("real-time target (cpsim serve --clock real --speed 15 --no-control)", r.result));
      figures.push(`conform_realtime_s=${r.seconds.toFixed(1)}`);
    }
    let embedded: ConformResult | undefined;
    if (wanted("embedded")) {
      // Timed around the whole call: the embedded emulator's start (a child process) included.
      const embeddedStarted = Date.now();
      embedded = await conform({ seed: o.seed, quiet: true, reportDir: join(dir, "embedded") }, { startEmbedded });
      runs.push(["embedded", embedded]);
      console.log(line("embedded emulator", embedded));
      figures.push(`conform_embedded_s=${((Date.now() - embeddedStarted) / 1000).toFixed(1)}`);
    }
    if (realtime && embedded) {
      const judgedThere = new Set(embedded.report.rules.filter((r) => r.status !== "skip").map((r) => r.id));
      for (const r of realtime.report.rules) if (r.status === "skip" && judgedThere.has(r.id)) console.log(`  skipped on the real-time target only: ${r.id}: ${r.reason}`);
    }
    if (realtime) {
      const rt = realtime.report;
      figures.push(`realtime_requests_per_s=${(rt.requests / (rt.wallTimeMs / 1000)).toFixed(1)}`, `rules_judged=${rt.coverage.rules.checked}`);
    }
    let twoWorkersS: number | undefined;
    if (wanted("two-workers")) {
      // Issue 32's stand-in for a real-time platform: pods from a server at 15 × (RUNNING in about
      // 3 s), jobs from one on the wall clock (the handler's sleeps take real time) whose
      // conformance endpoint runs two workers.
      const fixtures = await workerFixtures(dir, 2);
      const r = await realTimeRun(o, dir, "two-workers", 15, ["--fixtures", fixtures], { speed: 1, extra: ["--fixtures", fixtures] });
      runs.push(["two workers", r.result]);
      console.log(line("real-time target, jobs on the wall clock with two workers, pods start in about 3 s (job endpoints: cpsim serve --clock real --speed 1, workersMax 2)", r.result));
      console.log(`  ${criticalPathLine(r.result)}`);
      twoWorkersS = r.seconds;
    }
    let oneWorkerS: number | undefined;
    if (wanted("one-worker")) {
      const fixtures = await workerFixtures(dir, 1);
      const r = await realTimeRun(o, dir, "one-worker", 9, ["--fixtures", fixtures]);
      runs.push(["one worker", r.result]);
      console.log(line("real-time target, pods start in about 5 s, one worker (cpsim serve --clock real --speed 9, workersMax 1)", r.result));
      console.log(`  ${criticalPathLine(r.result)}`);
      oneWorkerS = r.seconds;
    }
    let failures = 0;
    for (const [name, run] of runs) {
      for (const r of run.report.rules.filter((x) => x.status === "fail")) console.log(`  FAIL (${name}) ${r.id}: ${r.failures[0]?.evidence.expected ?? ""}`);
      failures += run.report.summary.failed + run.report.summary.targetErrors;
    }
    figures.push(`failures=${failures}`);
    if (twoWorkersS !== undefined) figures.push(`conform_realtime_two_workers_s=${twoWorkersS.toFixed(1)}`);
    if (oneWorkerS !== undefined) figures.push(`conform_one_worker_s=${oneWorkerS.toFixed(1)}`);
    console.log(figures.join(" "));
    if (failures > 0) process.exitCode = 1;
  } finally {
    // CPSIM_BENCH_KEEP=1 keeps each run's report (report.json per run) for a closer look.
    if (process.env["CPSIM_BENCH_KEEP"]) console.log(`reports kept in ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
}

await main();
