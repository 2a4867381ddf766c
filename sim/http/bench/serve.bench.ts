/**
 * `npm run bench:serve`: what serving over HTTP costs. In one run, on loopback only:
 *   1. the emulator (forked child, manual clock): requests/s and latency of
 *      POST /v2/conformance/run, GET /v2/conformance/status/{id} and POST /v2/pods;
 *   2. a bare node:http server (forked child) answering a fixed JSON body: the same number of
 *      POST /v2/conformance/run requests, the ceiling of this machine and load generator;
 *   3. a fresh emulator child: resident memory when idle (after a warm-up cycle), then after
 *      1,000,000 jobs were submitted, completed and expired (virtual time advanced between batches).
 * The load generator (undici Pool, pipelining) runs in this process, the servers in children.
 * Last line: serve_vs_bare_ratio=R run_rps=N p99_ms=P rss_after_expiry_ratio=M
 * (targets: R >= 0.6, M <= 1.2).
 *
 * Options: --backend default|test (test: the transport alone, over the TEST backend)
 *          --requests N (per phase, default 100000) --jobs N (default 1000000) --batch N (default 20000)
 *          --connections N (default 16) --pipelining N (default 8) --time-limit-s N (default 900)
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { request } from "undici";
import type { BackendApiKey } from "../backend.ts";
import { type LoadResult, type LoadSpec, runLoad } from "./load.ts";
import type { ChildMessage } from "./serve-child.ts";

interface BenchOptions {
  backend: "default" | "test";
  requests: number;
  jobs: number;
  batch: number;
  connections: number;
  pipelining: number;
  timeLimitS: number;
}

function parseOptions(argv: readonly string[]): BenchOptions {
  const o: BenchOptions = { backend: "default", requests: 100_000, jobs: 1_000_000, batch: 20_000, connections: 16, pipelining: 8, timeLimitS: 900 };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    const n = Number(value);
    switch (flag) {
      case "--backend":
        if (value !== "default" && value !== "test") throw new Error(`--backend must be default or test, got ${value}`);
        o.backend = value;
        break;
      case "--requests":
      case "--jobs":
      case "--batch":
      case "--connections":
      case "--pipelining":
      case "--time-limit-s": {
        if (!Number.isSafeInteger(n) || n < 1 || n > 100_000_000) throw new Error(`${flag} must be a whole number 1..1e8, got ${value}`);
        const key = flag === "--time-limit-s" ? "timeLimitS" : (flag.slice(2) as "requests" | "jobs" | "batch" | "connections" | "pipelining");
        o[key] = n;
        break;
      }
      default:
        throw new Error(`unknown option ${flag}`);
    }
  }
  return o;
}

interface Child {
  readonly url: string;
  readonly apiKeys: readonly BackendApiKey[];
  rss(): Promise<number>;
  stop(): Promise<void>;
}

const childPath = fileURLToPath(new URL("./serve-child.ts", import.meta.url));

function forkServer(kind: "emulator" | "bare", backend: string): Promise<Child> {
  const child: ChildProcess = fork(childPath, [kind, backend, "manual"], {
    execArgv: ["--import", "tsx", "--expose-gc"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    const onMessage = (m: ChildMessage): void => {
      if (m.type === "error") reject(new Error(m.message));
      if (m.type !== "ready") return;
      child.off("message", onMessage);
      resolve({
        url: m.url as string,
        apiKeys: m.apiKeys ?? [],
        rss: () =>
          new Promise((r) => {
            const listener = (x: ChildMessage): void => {
              if (x.type !== "rss") return;
              child.off("message", listener);
              r(x.rss as number);
            };
            child.on("message", listener);
            child.send({ type: "rss" });
          }),
        stop: () =>
          new Promise((r) => {
            child.once("exit", () => r());
            child.send({ type: "stop" });
          }),
      });
    };
    child.on("message", onMessage);
    child.once("exit", (code) => reject(new Error(`server child exited with code ${code} before it was ready`)));
  });
}

function loadKey(keys: readonly BackendApiKey[]): string {
  // The exempt account is not rate limited: the bench measures serving, not 429s.
  return (keys.find((k) => k.access === "exempt") ?? keys.find((k) => k.access === "full") ?? { key: "none" }).key;
}

function line(name: string, r: LoadResult): string {
  const statuses = Object.entries(r.statuses)
    .map(([s, n]) => `${s}:${n}`)
    .join(",");
  return `${name.padEnd(34)} ${r.count} req  ${Math.round(r.rps)} req/s  p50 ${r.p50Ms.toFixed(2)} ms  p99 ${r.p99Ms.toFixed(2)} ms  max ${r.maxMs.toFixed(1)} ms  [${statuses}]`;
}

async function postJson(url: string, key: string, body: unknown): Promise<unknown> {
  const res = await request(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${text}`);
  return JSON.parse(text);
}

/** A createPod body the backend accepts: the first GPU type of its catalog. */
async function podBody(origin: string, key: string): Promise<string> {
  let gpuId = "NVIDIA GeForce RTX 4090";
  try {
    const res = await request(`${origin}/v2/catalog/gpus`, { headers: { authorization: `Bearer ${key}` } });
    const catalog = (await res.body.json()) as { gpus?: { id?: string }[] };
    gpuId = catalog.gpus?.[0]?.id ?? gpuId;
  } catch {
    // The test backend has no catalog; any body does.
  }
  return JSON.stringify({ name: "bench", image: "runpod/base:0.6.2", gpu: { id: gpuId, count: 1 } });
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  const deadline = Date.now() + o.timeLimitS * 1000;
  const overTime = (): boolean => Date.now() > deadline;
  console.log(
    `bench:serve backend=${o.backend} requests=${o.requests} jobs=${o.jobs} batch=${o.batch} connections=${o.connections} pipelining=${o.pipelining} node=${process.version}`,
  );
  const base = (key: string, method: "GET" | "POST", count: number): Omit<LoadSpec, "path"> => ({
    method,
    count,
    connections: o.connections,
    pipelining: o.pipelining,
    headers: method === "POST" ? { "content-type": "application/json", authorization: `Bearer ${key}` } : { authorization: `Bearer ${key}` },
    body: method === "POST" ? '{"input":{"op":"echo","n":1}}' : undefined,
  });

  // 1. The emulator.
  const emu = await forkServer("emulator", o.backend);
  const key = loadKey(emu.apiKeys);
  await runLoad(emu.url, { ...base(key, "POST", Math.min(10_000, o.requests)), path: () => "/v2/conformance/run" });
  const run = await runLoad(emu.url, { ...base(key, "POST", o.requests), path: () => "/v2/conformance/run", collectIds: 10_000 });
  console.log(line("emulator POST /v2/conformance/run", run));
  const ids = run.ids.length > 0 ? run.ids : ["none"];
  const status = await runLoad(emu.url, { ...base(key, "GET", o.requests), path: (i) => `/v2/conformance/status/${ids[i % ids.length]}` });
  console.log(line("emulator GET .../status/{id}", status));
  const pods = await runLoad(emu.url, { ...base(key, "POST", o.requests), body: await podBody(emu.url, key), path: () => "/v2/pods" });
  console.log(line("emulator POST /v2/pods", pods));
  await emu.stop();

  // 2. The bare server, same request count.
  const bare = await forkServer("bare", o.backend);
  await runLoad(bare.url, { ...base("none", "POST", Math.min(10_000, o.requests)), path: () => "/v2/conformance/run" });
  const bareRun = await runLoad(bare.url, { ...base("none", "POST", o.requests), path: () => "/v2/conformance/run" });
  console.log(line("bare node:http POST (fixed JSON)", bareRun));
  await bare.stop();

  // 3. Memory: idle, then after o.jobs jobs submitted, completed and expired.
  const mem = await forkServer("emulator", o.backend);
  const memKey = loadKey(mem.apiKeys);
  const day = 24 * 3600 * 1000;
  const cycle = async (count: number): Promise<LoadResult> => {
    const r = await runLoad(mem.url, { ...base(memKey, "POST", count), path: () => "/v2/conformance/run" });
    await postJson(`${mem.url}/_sim/clock/advance`, memKey, { ms: day });
    return r;
  };
  // A warm-up cycle first, so "idle" is a server that has served (code compiled, pools made).
  await cycle(Math.min(o.batch, o.jobs));
  const idleRss = await mem.rss();
  let submitted = 0;
  let failed = 0;
  const memStarted = performance.now();
  while (submitted < o.jobs && !overTime()) {
    const n = Math.min(o.batch, o.jobs - submitted);
    const r = await cycle(n);
    failed += r.count - (r.statuses[200] ?? 0);
    submitted += n;
  }
  await postJson(`${mem.url}/_sim/clock/advance`, memKey, { ms: 7 * day });
  const afterRss = await mem.rss();
  await mem.stop();
  const mib = (b: number): string => `${(b / 1024 / 1024).toFixed(1)} MiB`;
  console.log(
    `memory: idle ${mib(idleRss)}, after ${submitted} jobs completed and expired ${mib(afterRss)} ` +
      `(${((performance.now() - memStarted) / 1000).toFixed(1)} s${failed > 0 ? `, ${failed} submissions not 200` : ""}` +
      `${submitted < o.jobs ? `, STOPPED EARLY at the ${o.timeLimitS} s time limit` : ""})`,
  );

  const ratio = run.rps / bareRun.rps;
  console.log(
    `serve_vs_bare_ratio=${ratio.toFixed(3)} run_rps=${Math.round(run.rps)} p99_ms=${run.p99Ms.toFixed(2)} rss_after_expiry_ratio=${(afterRss / idleRss).toFixed(3)}`,
  );
}

main().catch((err: Error) => {
  console.error(`bench:serve: ${err.message}`);
  process.exit(2);
});
