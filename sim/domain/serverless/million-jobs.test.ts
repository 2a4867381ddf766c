import t from "tap";
import { Engine, seconds } from "../../core/index.ts";
import type { HandlerPlan, JobHandler } from "../handlers/index.ts";
import { Serverless } from "./serverless.ts";
import { TestPool } from "./test-pool.ts";

/** A handler that takes 1 ms and returns nothing; its plan is shared, so jobs allocate nothing of their own. */
const PLAN: HandlerPlan = Object.freeze({ kind: "complete", durationMs: 1, output: null });
const instant: JobHandler = { name: "instant", streaming: false, plan: () => PLAN };

const gc = (globalThis as { gc?: () => void }).gc;
function heapMb(): number {
  gc?.();
  gc?.();
  // The job table lives in typed arrays, outside the JS heap: count both.
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 2 ** 20;
}

t.test("a million jobs go through, and memory returns after retention", async (t) => {
  const engine = new Engine({ seed: "million", logHistoryLimit: 0 });
  const model = new Serverless(
    engine,
    {
      accounts: [{ id: "acct" }],
      endpoints: [
        {
          id: "bulk",
          accountId: "acct",
          handler: "instant",
          gpuTypeIds: ["A"],
          gpuCount: 1,
          workersMin: 50,
          workersMax: 50,
          idleTimeoutMs: 5000,
          scalerType: "RequestCount",
          scalerValue: 1,
          executionTimeoutMs: 600_000,
          coldStartMs: { mean: 0, cv: 0 },
          slug: null,
        },
      ],
    },
    engine.rng.fork("serverless"),
    new TestPool({ A: 50 }),
    { runRetentionMs: 60_000, resolveHandler: (name) => (name === "instant" ? instant : undefined) },
  );
  const baseline = heapMb();
  const input = Object.freeze({});
  const total = 1_000_000;
  let submitted = 0;
  // 10,000 jobs a second for 100 s: about 600,000 held at the peak (60 s retention).
  const arrive = engine.defineKind("test.arrival", () => {
    model.submitFast(0, 0, input);
    if (++submitted < total) engine.after(100, arrive, 0);
  });
  engine.at(0, arrive, 0);
  const started = performance.now();
  engine.runUntil(seconds(100));
  const wall = performance.now() - started;
  t.equal(submitted, total);
  const peak = model.stats();
  const h = model.healthOf(0);
  t.ok(peak.heldJobs > 550_000 && peak.heldJobs < 650_000, `about 600k jobs held at the peak (${peak.heldJobs})`);
  // Held jobs include those past retention that the next sweep (at most 1 s away) removes: at most 10,000.
  const visible = h.jobs.completed + h.jobs.inProgress + h.jobs.inQueue;
  t.ok(visible <= peak.heldJobs && peak.heldJobs - visible <= 10_000, `health counts the visible jobs (${visible} of ${peak.heldJobs} held)`);
  const peakHeap = heapMb();
  t.comment(`${total} jobs in ${Math.round(wall)} ms wall (${Math.round(total / wall)}k jobs/s); heap ${baseline.toFixed(1)} MB → ${peakHeap.toFixed(1)} MB at the peak; table ${peak.tableCapacity} slots`);

  engine.runFor(seconds(120));
  const after = model.stats();
  t.same(
    { held: after.heldJobs, queue: after.queueEntries, expiry: after.expiryEntries, listeners: after.listeners, streams: after.streams, webhooks: after.webhooks },
    { held: 0, queue: 0, expiry: 0, listeners: 0, streams: 0, webhooks: 0 },
    "nothing is left after retention",
  );
  t.ok(after.tableCapacity <= 256, `the job table shrank back (${after.tableCapacity} slots)`);
  t.equal(after.workers, 50, "the fixed workers remain");
  t.equal(engine.pending, 0, "no event is left pending (idle fixed workers need none)");
  const end = heapMb();
  t.comment(`heap after retention ${end.toFixed(1)} MB (gc ${gc ? "exposed" : "not exposed: structural check only"})`);
  if (gc) t.ok(end < baseline + 16, `heap returns near its baseline (${baseline.toFixed(1)} → ${end.toFixed(1)} MB)`);
});
