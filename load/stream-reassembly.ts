/**
 * The stream check made after a run: sample jobs read to the end, their chunks each at most the
 * limit and, concatenated, equal to what the conformance handler's `stream` op yields.
 */
import type { LoadCheck } from "../reports/index.ts";
import { submitJobs, waitForJobs } from "./setup-jobs.ts";
import type { LoadTarget } from "./target.ts";
import { call, FINAL_JOB_STATUSES, jobUrl } from "./target-calls.ts";

/** What a `stream` job's handler yields, concatenated: K strings of B characters a..z, each starting over. */
export function expectedStreamOutput(input: Record<string, unknown>): string {
  const k = Number(input.chunks ?? 0);
  const b = Number(input.bytes ?? 0);
  const one = "abcdefghijklmnopqrstuvwxyz".repeat(Math.ceil(b / 26)).slice(0, b);
  return one.repeat(k);
}

/** A check made off the hot path: counted like the per-response ones. */
export type CheckOutcome = Omit<LoadCheck, "name">;

/** Submits `sample` stream jobs, reads each to the end and compares the chunks with the handler's output. */
export async function checkStreamReassembly(target: LoadTarget, key: string, sample: number, input: Record<string, unknown>, maxChunkBytes: number): Promise<CheckOutcome> {
  const what = "stream reassembly check";
  const ids = await submitJobs(target, key, input, sample, what);
  await waitForJobs(target, key, ids, undefined, what);
  const expected = expectedStreamOutput(input);
  let passes = 0;
  let fails = 0;
  let detail: string | undefined;
  for (const id of ids) {
    let text = "";
    let oversized = 0;
    for (let read = 0; read < 1000; read++) {
      const r = await call(target, "GET", jobUrl(target, "stream", id), key);
      const body = r.json as { status?: string; stream?: { output?: unknown }[] } | { output?: unknown }[] | undefined;
      const chunks = Array.isArray(body) ? body : (body?.stream ?? []);
      for (const c of chunks) {
        const o = typeof c?.output === "string" ? c.output : JSON.stringify(c?.output ?? "");
        if (Buffer.byteLength(o) > maxChunkBytes) oversized++;
        text += o;
      }
      const status = Array.isArray(body) ? "COMPLETED" : body?.status;
      if (chunks.length === 0 && FINAL_JOB_STATUSES.has(String(status))) break;
    }
    if (text === expected && oversized === 0) passes++;
    else {
      fails++;
      detail ??= `job ${id}: reassembled ${text.length} characters, expected ${expected.length}${oversized ? `; ${oversized} chunk(s) over ${maxChunkBytes} bytes` : ""}`;
    }
  }
  return { passes, fails, detail };
}
