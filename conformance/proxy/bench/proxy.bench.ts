/**
 * `npm run bench:proxy`: what putting `cpsim proxy` between a client and the emulator costs. The
 * emulator (manual clock; emulator-child.ts) and the proxy each run in a forked child; the load
 * generator (undici Pool, sim/http/bench/load.ts) runs here. The same requests
 * (POST /v2/conformance/run with a full-access key whose quotas the bench never spends, so every
 * answer carries RateLimit headers as the spec's keys' do) go to the emulator directly and through
 * the proxy, which judges every exchange; on the emulator, a correct target, that makes no finding:
 *   1. latency: one connection, one request at a time, so a figure is one exchange's cost and not
 *      a queue's: p50 and p99 added by the proxy;
 *   2. throughput: 16 connections, one request in flight each: requests/s through the proxy ÷ direct.
 * Direct and proxied phases alternate (direct, proxy, direct, proxy) and each figure takes the better
 * of its two runs, so that a burst of other load on the machine does not decide it. The proxy's
 * CPU time per exchange over the measured phases (user + system, from its own process) is the
 * figure the machine's other load moves least.
 *   3. memory (memory-phase.ts, first): a proxy of its own before a stub job target, 2,000 jobs with
 *      300 KB outputs: its RSS idle and after them (after a full GC).
 * Last line: proxy_added_p50_ms=A proxy_added_p99_ms=B proxy_vs_direct_throughput=R direct_rps=D proxy_rps=P findings=F proxy_cpu_us_per_exchange=C
 *   rss_mb_idle=I rss_mb_after_2000_jobs_300kb=M
 *
 * Options: --memory-only (phase 3 alone) --latency-requests N (default 3000) --throughput-requests N (default 20000) --connections N (default 16)
 * CPSIM_BENCH_PROF=DIR writes a CPU profile of the proxy child there (node --cpu-prof).
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BackendApiKey } from "../../../sim/http/backend.ts";
import { type LoadResult, runLoad } from "../../../sim/http/bench/load.ts";
import { runJobs, stubJobTarget } from "./memory-phase.ts";

interface Options {
  memoryOnly: boolean;
  latencyRequests: number;
  throughputRequests: number;
  connections: number;
}

function parseOptions(argv: readonly string[]): Options {
  const o: Options = { memoryOnly: argv.includes("--memory-only"), latencyRequests: 3000, throughputRequests: 20_000, connections: 16 };
  argv = argv.filter((a) => a !== "--memory-only");
  for (let i = 0; i < argv.length; i += 2) {
    const n = Number(argv[i + 1]);
    if (!Number.isSafeInteger(n) || n < 1 || n > 10_000_000) throw new Error(`${argv[i]} must be a whole number 1..1e7, got ${argv[i + 1]}`);
    if (argv[i] === "--latency-requests") o.latencyRequests = n;
    else if (argv[i] === "--throughput-requests") o.throughputRequests = n;
    else if (argv[i] === "--connections") o.connections = n;
    else throw new Error(`unknown option ${argv[i]}`);
  }
  return o;
}

interface Child {
  readonly url: string;
  readonly apiKeys: readonly BackendApiKey[];
  readonly process: ChildProcess;
}

function forkChild(path: string, args: readonly string[]): Promise<Child> {
  const prof = process.env.CPSIM_BENCH_PROF && path.includes("proxy-child") ? ["--cpu-prof", `--cpu-prof-dir=${process.env.CPSIM_BENCH_PROF}`] : [];
  const child = fork(path, [...args], { execArgv: ["--import", "tsx", "--expose-gc", ...prof], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${path} exited with code ${code} before it was ready`)));
    child.on("message", (m: { type: string; url?: string; apiKeys?: BackendApiKey[]; message?: string }) => {
      if (m.type === "error") reject(new Error(m.message));
      if (m.type === "ready") resolve({ url: m.url as string, apiKeys: m.apiKeys ?? [], process: child });
    });
  });
}

function stopChild(c: Child, message = { type: "stop" }): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    c.process.on("message", (m: Record<string, unknown>) => {
      if (m.type === "stopped") resolve(m);
    });
    c.process.once("exit", () => resolve({}));
    c.process.send(message);
  });
}

/** The proxy child's CPU time so far (µs, user + system) and its exchanges. */
function cpuOf(c: Child): Promise<{ cpuUs: number; systemUs: number; exchanges: number }> {
  return new Promise((resolve) => {
    const on = (m: { type: string; cpuUs?: number; systemUs?: number; exchanges?: number }) => {
      if (m.type !== "cpu") return;
      c.process.off("message", on);
      resolve({ cpuUs: m.cpuUs ?? 0, systemUs: m.systemUs ?? 0, exchanges: m.exchanges ?? 0 });
    };
    c.process.on("message", on);
    c.process.send({ type: "cpu" });
  });
}

function line(name: string, r: LoadResult): string {
  const statuses = Object.entries(r.statuses).map(([s, n]) => `${s}:${n}`).join(",");
  return `${name.padEnd(30)} ${r.count} req  ${Math.round(r.rps)} req/s  p50 ${r.p50Ms.toFixed(3)} ms  p99 ${r.p99Ms.toFixed(3)} ms  [${statuses}]`;
}

interface Mem {
  rssMb: number;
  rssBeforeGcMb: number;
  heapMb: number;
  exchanges: number;
  capturePeakMb: number;
}

function memOf(c: Child): Promise<Mem> {
  return new Promise((resolve) => {
    const on = (m: Mem & { type: string }) => {
      if (m.type !== "mem") return;
      c.process.off("message", on);
      resolve(m);
    };
    c.process.on("message", on);
    c.process.send({ type: "mem" });
  });
}

/** The memory phase: a proxy of its own in front of a stub job target, 2,000 jobs with 300 KB outputs. */
async function memoryPhase(): Promise<string> {
  const stub = await stubJobTarget();
  const reportDir = mkdtempSync(join(tmpdir(), "cpsim-bench-proxy-mem-"));
  const proxy = await forkChild(fileURLToPath(new URL("./proxy-child.ts", import.meta.url)), [stub.url, reportDir]);
  const idle = await memOf(proxy);
  await runJobs(proxy.url, 2000, 8, "cpsim_bench_key_0123456789");
  const after = await memOf(proxy);
  await stopChild(proxy);
  stub.server.close();
  rmSync(reportDir, { recursive: true, force: true });
  console.log(
    `bench:proxy memory: idle ${idle.rssMb.toFixed(0)} MB RSS; after 2000 jobs with 300 KB outputs (${after.exchanges} exchanges): ${after.rssMb.toFixed(0)} MB RSS after a GC ` +
      `(${after.rssBeforeGcMb.toFixed(0)} MB before it), heap ${after.heapMb.toFixed(0)} MB, body heads at most ${after.capturePeakMb.toFixed(1)} MB at once`,
  );
  return `rss_mb_idle=${idle.rssMb.toFixed(0)} rss_mb_after_2000_jobs_300kb=${after.rssMb.toFixed(0)}`;
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  const memory = await memoryPhase();
  if (o.memoryOnly) {
    console.log(memory);
    return;
  }
  const emulator = await forkChild(fileURLToPath(new URL("./emulator-child.ts", import.meta.url)), []);
  const reportDir = mkdtempSync(join(tmpdir(), "cpsim-bench-proxy-"));
  const proxy = await forkChild(fileURLToPath(new URL("./proxy-child.ts", import.meta.url)), [emulator.url, reportDir]);
  const benchKey = emulator.apiKeys.find((k) => k.account === "acct-bench");
  if (!benchKey) throw new Error("the bench emulator has no acct-bench key");
  const key = benchKey.key;
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const body = JSON.stringify({ input: { op: "echo", n: 1 } });
  const run = (origin: string, count: number, connections: number) =>
    runLoad(origin, { method: "POST", path: () => "/v2/conformance/run", body, headers, count, connections, pipelining: 1 });
  console.log(`bench:proxy: emulator ${emulator.url}, proxy ${proxy.url}; ${o.latencyRequests} requests one at a time, ${o.throughputRequests} over ${o.connections} connections`);
  // Warm-up: both paths' connections, JIT and the proxy's followers.
  await run(emulator.url, 500, 4);
  await run(proxy.url, 500, 4);
  const latency: { direct: LoadResult[]; proxy: LoadResult[] } = { direct: [], proxy: [] };
  const throughput: { direct: LoadResult[]; proxy: LoadResult[] } = { direct: [], proxy: [] };
  const cpuBefore = await cpuOf(proxy);
  for (let round = 0; round < 2; round++) {
    for (const [name, url] of [["direct", emulator.url], ["proxy", proxy.url]] as const) {
      const l = await run(url, o.latencyRequests, 1);
      latency[name].push(l);
      console.log(line(`latency ${name} #${round + 1}`, l));
      const t = await run(url, o.throughputRequests, o.connections);
      throughput[name].push(t);
      console.log(line(`throughput ${name} #${round + 1}`, t));
    }
  }
  const cpuAfter = await cpuOf(proxy);
  const measured = Math.max(1, cpuAfter.exchanges - cpuBefore.exchanges);
  const cpuPerExchange = (cpuAfter.cpuUs - cpuBefore.cpuUs) / measured;
  const systemPerExchange = (cpuAfter.systemUs - cpuBefore.systemUs) / measured;
  const stopped = await stopChild(proxy);
  await stopChild(emulator);
  rmSync(reportDir, { recursive: true, force: true });
  const best = (rs: LoadResult[], f: (r: LoadResult) => number, lowest: boolean) => rs.map(f).reduce((a, b) => (lowest ? Math.min(a, b) : Math.max(a, b)));
  const p50 = best(latency.proxy, (r) => r.p50Ms, true) - best(latency.direct, (r) => r.p50Ms, true);
  const p99 = best(latency.proxy, (r) => r.p99Ms, true) - best(latency.direct, (r) => r.p99Ms, true);
  const directRps = best(throughput.direct, (r) => r.rps, false);
  const proxyRps = best(throughput.proxy, (r) => r.rps, false);
  const errors = [...latency.proxy, ...throughput.proxy].reduce((n, r) => n + (r.statuses.error ?? 0), 0);
  if (errors > 0) console.log(`bench:proxy: ${errors} requests through the proxy failed without an answer`);
  console.log(`bench:proxy: the proxy judged ${String(stopped.exchanges)} exchanges; its CPU per exchange: ${(cpuPerExchange - systemPerExchange).toFixed(1)} µs user + ${systemPerExchange.toFixed(1)} µs system (the kernel's socket work)`);
  console.log(
    `proxy_added_p50_ms=${p50.toFixed(3)} proxy_added_p99_ms=${p99.toFixed(3)} proxy_vs_direct_throughput=${(proxyRps / directRps).toFixed(3)} ` +
      `direct_rps=${Math.round(directRps)} proxy_rps=${Math.round(proxyRps)} findings=${String(stopped.findings)} ` +
      `proxy_cpu_us_per_exchange=${cpuPerExchange.toFixed(1)} ${memory}`,
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
