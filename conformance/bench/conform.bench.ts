/**
 * `npm run bench:conform`: how long a full lenient conformance run takes, two ways:
 *   1. against a real-time target: `cpsim serve --clock real --speed 15 --no-control` started as
 *      a child process on port 0 (pods reach RUNNING in about 3 s, jobs run in real time), with
 *      its three fixture keys; the run is bounded by --max-duration (default 600 s);
 *   2. against the embedded emulator (its own child process, manual clock).
 * Both timed around the whole conform() call (the embedded emulator's start included).
 * Both with the same seed. Before the figures, the rules judged on the emulator but skipped on
 * the real-time target, each with its reason, and every failure. Last line:
 *   conform_realtime_s=N conform_embedded_s=M realtime_requests_per_s=R rules_judged=K failures=F
 * (targets: N < 180, M < 10, F = 0). K is the real-time run's count of judged rules; F counts the
 * failed rules and target errors of both runs. The exit code is 1 when F > 0.
 *
 * Options: --seed N (default 1) --max-duration S (default 600)
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import "../checks/index.ts";
import { conform, type ConformResult } from "../conform.ts";
import { startEmbedded } from "../embedded.ts";

interface ServeInfo {
  readonly baseUrl: string;
  readonly serverlessUrl: string;
  readonly apiKeys: readonly { key: string; account: string; access: string }[];
}

function parse(argv: readonly string[]): { seed: number; maxDurationS: number } {
  const o = { seed: 1, maxDurationS: 600 };
  for (let i = 0; i < argv.length; i += 2) {
    const n = Number(argv[i + 1]);
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${argv[i]} takes a whole number, got ${argv[i + 1]}`);
    if (argv[i] === "--seed") o.seed = n;
    else if (argv[i] === "--max-duration") o.maxDurationS = n;
    else throw new Error(`unknown option ${argv[i]}`);
  }
  return o;
}

async function startRealTimeServer(): Promise<{ info: ServeInfo; stop: () => Promise<void> }> {
  const bin = fileURLToPath(new URL("../../bin/cpsim.js", import.meta.url));
  const child = spawn(process.execPath, [bin, "serve", "--clock", "real", "--speed", "15", "--no-control", "--port", "0", "--json"], { stdio: ["ignore", "pipe", "inherit"] });
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

async function main(): Promise<void> {
  const o = parse(process.argv.slice(2));
  const dir = await mkdtemp(join(tmpdir(), "cpsim-bench-conform-"));
  const server = await startRealTimeServer();
  try {
    const { info } = server;
    const realtimeStarted = Date.now();
    const realtime = await conform(
      {
        target: info.baseUrl,
        serverlessUrl: info.serverlessUrl,
        apiKey: keyOf(info, "acct-alpha", "full"),
        restrictedApiKey: keyOf(info, "acct-alpha", "read-only"),
        otherApiKey: keyOf(info, "acct-beta", "full"),
        seed: o.seed,
        maxDurationS: o.maxDurationS,
        quiet: true,
        reportDir: join(dir, "realtime"),
      },
      { controlApi: false },
    );
    const realtimeS = (Date.now() - realtimeStarted) / 1000;
    await server.stop();
    console.log(line("real-time target (cpsim serve --clock real --speed 15 --no-control)", realtime));
    // Timed around the whole call: the embedded emulator's start (a child process) included.
    const embeddedStarted = Date.now();
    const embedded = await conform({ seed: o.seed, quiet: true, reportDir: join(dir, "embedded") }, { startEmbedded });
    const embeddedS = (Date.now() - embeddedStarted) / 1000;
    console.log(line("embedded emulator", embedded));
    const rt = realtime.report;
    const judgedThere = new Set(embedded.report.rules.filter((r) => r.status !== "skip").map((r) => r.id));
    for (const r of rt.rules) if (r.status === "skip" && judgedThere.has(r.id)) console.log(`  skipped on the real-time target only: ${r.id}: ${r.reason}`);
    let failures = 0;
    for (const [name, run] of [["real-time", realtime], ["embedded", embedded]] as const) {
      for (const r of run.report.rules.filter((x) => x.status === "fail")) console.log(`  FAIL (${name}) ${r.id}: ${r.failures[0]?.evidence.expected ?? ""}`);
      failures += run.report.summary.failed + run.report.summary.targetErrors;
    }
    const rps = rt.requests / (rt.wallTimeMs / 1000);
    console.log(
      `conform_realtime_s=${realtimeS.toFixed(1)} conform_embedded_s=${embeddedS.toFixed(1)} ` +
        `realtime_requests_per_s=${rps.toFixed(1)} rules_judged=${rt.coverage.rules.checked} failures=${failures}`,
    );
    if (failures > 0) process.exitCode = 1;
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
