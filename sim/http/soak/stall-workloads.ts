/**
 * The soak's stall phase: work proportional to a payload (image jobs of 2048×2048×4, uploads of
 * 9.9 MB, parallel reads of 16 MB results) runs while a canary asks for an endpoint's health
 * every 10 ms from a thread of its own; the canary's p99 says whether the server's event loop
 * stalled (target: under 100 ms).
 * Each workload is bounded in count and in time.
 */
import { Worker } from "node:worker_threads";
import { request } from "undici";
import { workerModule } from "../../package-root.ts";

const KEY = "Bearer cpsim_load_exempt_5b0e8d3a6c1f9247";
const MiB = 1024 * 1024;
/** A workload gives up waiting for its jobs after this long. */
const WORKLOAD_LIMIT_MS = 180_000;
/** Characters of each answer kept for reading ids and statuses. */
const HEAD_CHARS = 4096;

export interface StallResult {
  readonly name: string;
  readonly canaryP99Ms: number;
  readonly canaryMaxMs: number;
  readonly canaryRequests: number;
  /** Every canary latency of the workload, in ms (for a p99 over all workloads). */
  readonly canaryLatencies: readonly number[];
  readonly errors: number;
  readonly note: string;
}

/**
 * One request; the answer's first HEAD_CHARS characters are kept and the rest only counted, so
 * that reading 1.6 GB of answers costs this process (which also times the canary) next to nothing.
 */
async function call(base: string, method: "GET" | "POST", path: string, body?: string | Buffer): Promise<{ status: number; text: string; bytes: number }> {
  const res = await request(base + path, {
    method,
    headers: { authorization: KEY, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    ...(body !== undefined ? { body } : {}),
    headersTimeout: 120_000,
    bodyTimeout: 120_000,
  });
  let text = "";
  let bytes = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    if (text.length < HEAD_CHARS) text += chunk.toString("latin1", 0, Math.min(chunk.length, HEAD_CHARS));
    bytes += chunk.length;
  }
  return { status: res.statusCode, text, bytes };
}

export function p99(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!;
}

/** Runs `work` while the canary (canary-thread.ts, on its own thread) measures. */
async function measured(base: string, name: string, work: () => Promise<{ errors: number; note: string }>): Promise<StallResult> {
  const canary = new Worker(workerModule(import.meta.url, "canary-thread"), { workerData: { base, key: KEY } });
  const report = new Promise<{ latencies: number[]; errors: number }>((resolve, reject) => {
    canary.once("message", resolve);
    canary.once("error", reject);
  });
  let outcome: { errors: number; note: string };
  try {
    outcome = await work();
  } finally {
    canary.postMessage("stop");
  }
  const { latencies, errors: canaryErrors } = await report;
  await canary.terminate();
  return {
    name,
    canaryP99Ms: p99(latencies),
    canaryMaxMs: latencies.length ? Math.max(...latencies) : 0,
    canaryRequests: latencies.length,
    canaryLatencies: latencies,
    errors: outcome.errors + canaryErrors,
    note: outcome.note,
  };
}

async function pool<T>(count: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await task(i);
      }
    }),
  );
  return out;
}

/** Polls the jobs' status until none is queued or running (bounded). */
async function settle(base: string, endpoint: string, ids: readonly string[]): Promise<Map<string, string>> {
  const states = new Map<string, string>();
  const end = performance.now() + WORKLOAD_LIMIT_MS;
  let open = [...ids];
  while (open.length > 0 && performance.now() < end) {
    const still: string[] = [];
    for (const id of open) {
      const r = await call(base, "GET", `/v2/${endpoint}/status/${id}`);
      const status = /"status":"(\w+)"/.exec(r.text.slice(0, 400))?.[1] ?? `http-${r.status}`;
      states.set(id, status);
      if (status === "IN_QUEUE" || status === "IN_PROGRESS") still.push(id);
    }
    open = still;
    if (open.length > 0) await new Promise((r) => setTimeout(r, 200));
  }
  return states;
}

function tally(states: Map<string, string>): string {
  const counts: Record<string, number> = {};
  for (const s of states.values()) counts[s] = (counts[s] ?? 0) + 1;
  return Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(", ");
}

export async function stallWorkloads(base: string): Promise<StallResult[]> {
  const results: StallResult[] = [];
  results.push(
    await measured(base, "big reads (16 results of 16 MB, 100 parallel reads)", async () => {
      const n = 16 * MiB - 2;
      const ids = (await pool(16, 4, async () => call(base, "POST", "/v2/conformance/run", JSON.stringify({ input: { op: "bytes", n } })))).map((r) => /"id":"([^"]+)"/.exec(r.text)?.[1] ?? "");
      await settle(base, "conformance", ids.filter((id) => id !== ""));
      let bytes = 0;
      const reads = await pool(100, 100, async (i) => {
        const r = await call(base, "GET", `/v2/conformance/status/${ids[i % ids.length]}`);
        bytes += r.bytes;
        return r.status;
      });
      // A 404 is a result that expired meanwhile (30 virtual minutes are 15 s here): an answer, not an error.
      return { errors: reads.filter((s) => s >= 500).length, note: `${(bytes / MiB).toFixed(0)} MiB read, ${reads.filter((s) => s === 404).length} expired` };
    }),
  );
  results.push(
    await measured(base, "image jobs (60 × 2048×2048×4)", async () => {
      const body = (i: number) => JSON.stringify({ input: { prompt: `a red fox ${i}`, width: 2048, height: 2048, num_images: 4 } });
      const ids = (await pool(60, 4, async (i) => call(base, "POST", "/v2/flux-1-schnell/run", body(i)))).map((r) => /"id":"([^"]+)"/.exec(r.text)?.[1] ?? "");
      const states = await settle(base, "flux-1-schnell", ids.filter((id) => id !== ""));
      return { errors: ids.filter((id) => id === "").length, note: tally(states) };
    }),
  );
  results.push(
    await measured(base, "uploads (60 × 9.9 MB)", async () => {
      // One body of 9.9 MB, made once: the server parses each upload, this process only sends it.
      const upload = Buffer.from(JSON.stringify({ input: { op: "sleep", ms: 1, pad: "p".repeat(Math.round(9.9 * 1000 * 1000) - 64) } }));
      const answers = await pool(60, 4, async () => call(base, "POST", "/v2/conformance/run", upload));
      const counts: Record<number, number> = {};
      for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
      // 503 is the results budget refusing inputs past it: an answer, not an error.
      return { errors: answers.filter((a) => a.status >= 500 && a.status !== 503).length, note: Object.entries(counts).map(([k, v]) => `${v} × ${k}`).join(", ") };
    }),
  );
  return results;
}
