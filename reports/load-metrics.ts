/**
 * `cpsim load --out json=FILE` and `--out csv=FILE`: each scenario's per-second figures written
 * while the run goes, as k6's `--out json` and `--out csv` do, so a long run can be watched (tail
 * -f) and its series loaded elsewhere. JSON: one object a line, `{"type":"second", ...}` for each
 * second of each scenario, then one `{"type":"scenario", ...}` summary a scenario. CSV: a header
 * and one row a second. Files are opened before the first scenario, appended to as rows close,
 * and flushed at the end.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { LoadScenarioResult, LoadSecond } from "./load-report.ts";

export interface OutSpec {
  readonly kind: "json" | "csv";
  readonly file: string;
}

/** `json=FILE` or `csv=FILE`; anything else is undefined (the caller says what is accepted). */
export function parseOutSpec(text: string): OutSpec | undefined {
  const m = /^(json|csv)=(.+)$/.exec(text.trim());
  return m ? { kind: m[1] as "json" | "csv", file: m[2] } : undefined;
}

export const LOAD_METRICS_CSV_COLUMNS = ["scenario", "t", "requests", "s2xx", "s3xx", "s4xx", "s5xx", "s429", "failed", "errors", "p50_ms", "p90_ms", "p95_ms", "p99_ms", "max_ms"] as const;

export interface LoadMetricsSink {
  second(scenario: string, row: LoadSecond): void;
  scenario(result: LoadScenarioResult): void;
  close(): Promise<void>;
}

const ms = (us: number): number => Math.round(us) / 1000;
const csvField = (v: string | number): string => (typeof v === "number" ? String(v) : /[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

function open(file: string): Promise<WriteStream> {
  return new Promise((resolve, reject) => {
    const s = createWriteStream(file, { flags: "w" });
    s.once("open", () => resolve(s));
    s.once("error", reject);
  });
}

export async function openLoadMetrics(outs: readonly OutSpec[]): Promise<LoadMetricsSink> {
  const streams: { kind: OutSpec["kind"]; stream: WriteStream }[] = [];
  try {
    for (const o of outs) {
      await mkdir(dirname(o.file), { recursive: true });
      const stream = await open(o.file);
      if (o.kind === "csv") stream.write(`${LOAD_METRICS_CSV_COLUMNS.join(",")}\n`);
      streams.push({ kind: o.kind, stream });
    }
  } catch (err) {
    for (const s of streams) s.stream.destroy();
    throw err;
  }
  return {
    second(scenario, r) {
      for (const { kind, stream } of streams) {
        if (kind === "json") {
          stream.write(`${JSON.stringify({ type: "second", scenario, t: r.t, requests: r.requests, s2xx: r.s2xx, s3xx: r.s3xx, s4xx: r.s4xx, s5xx: r.s5xx, s429: r.s429, failed: r.failed, errors: r.errors, p50_ms: ms(r.p50Us), p90_ms: ms(r.p90Us), p95_ms: ms(r.p95Us), p99_ms: ms(r.p99Us), max_ms: ms(r.maxUs) })}\n`);
        } else {
          stream.write(`${[scenario, r.t, r.requests, r.s2xx, r.s3xx, r.s4xx, r.s5xx, r.s429, r.failed, r.errors, ms(r.p50Us), ms(r.p90Us), ms(r.p95Us), ms(r.p99Us), ms(r.maxUs)].map(csvField).join(",")}\n`);
        }
      }
    },
    scenario(s) {
      for (const { kind, stream } of streams) {
        if (kind !== "json") continue;
        stream.write(
          `${JSON.stringify({ type: "scenario", scenario: s.name, ...(s.skipped ? { skipped: s.skipped } : {}), requests: s.requests, rps: s.rps, statuses: s.statuses, failed: s.failed ?? 0, p50_ms: ms(s.latency.p50Us), p90_ms: ms(s.latency.p90Us), p99_ms: ms(s.latency.p99Us), max_ms: ms(s.latency.maxUs), passed: s.passed })}\n`,
        );
      }
    },
    async close() {
      await Promise.all(streams.map(({ stream }) => new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(err) : resolve())))));
    },
  };
}
