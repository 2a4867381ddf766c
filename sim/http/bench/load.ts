/**
 * The bench's load generator: a fixed number of requests through an undici Pool with pipelining,
 * keeping connections × pipelining requests in flight, timing each one. It runs in the bench's
 * main process; the servers it measures run in forked children.
 */
import { Pool } from "undici";

export interface LoadSpec {
  readonly method: "GET" | "POST";
  /** The path of request i. */
  readonly path: (i: number) => string;
  readonly body?: string;
  readonly headers: Record<string, string>;
  readonly count: number;
  readonly connections: number;
  readonly pipelining: number;
  /** Collect up to this many `id` fields from the responses (for status requests later). */
  readonly collectIds?: number;
}

export interface LoadResult {
  readonly count: number;
  readonly elapsedMs: number;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Responses by status code; "error" counts requests that failed without one. */
  readonly statuses: Record<string, number>;
  readonly ids: string[];
}

export async function runLoad(origin: string, spec: LoadSpec): Promise<LoadResult> {
  const pool = new Pool(origin, { connections: spec.connections, pipelining: spec.pipelining, keepAliveTimeout: 30_000 });
  const latencies = new Float64Array(spec.count);
  const statuses: Record<string, number> = {};
  const ids: string[] = [];
  const collect = spec.collectIds ?? 0;
  const window = spec.connections * spec.pipelining;
  let next = 0;
  let inFlight = 0;
  let done = 0;
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const launch = (): void => {
      while (next < spec.count && inFlight < window) {
        const i = next++;
        inFlight++;
        const t0 = performance.now();
        pool
          .request({ method: spec.method, path: spec.path(i), headers: spec.headers, body: spec.body })
          .then(async (res) => {
            const text = await res.body.text();
            latencies[i] = performance.now() - t0;
            statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
            if (ids.length < collect && res.statusCode < 300) {
              const id = (JSON.parse(text) as { id?: unknown }).id;
              if (typeof id === "string") ids.push(id);
            }
          })
          .catch(() => {
            latencies[i] = performance.now() - t0;
            statuses.error = (statuses.error ?? 0) + 1;
          })
          .finally(() => {
            inFlight--;
            done++;
            if (done === spec.count) resolve();
            else launch();
          });
      }
    };
    if (spec.count === 0) resolve();
    else launch();
  });
  const elapsedMs = performance.now() - started;
  await pool.close();
  latencies.sort();
  const at = (q: number): number => (spec.count === 0 ? 0 : latencies[Math.min(spec.count - 1, Math.floor(q * spec.count))]);
  return {
    count: spec.count,
    elapsedMs,
    rps: spec.count / (elapsedMs / 1000),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: spec.count === 0 ? 0 : latencies[spec.count - 1],
    statuses,
    ids,
  };
}
