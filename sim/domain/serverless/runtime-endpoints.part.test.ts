// Endpoints added, reconfigured and removed while the model runs (accounts create them through
// the API): random sequences keep every serverless invariant after every step, a removed
// endpoint's jobs in flight end CANCELLED and its GPUs all come back, and the same sequence gives
// the same event log.
import t from "tap";
import fc from "fast-check";
import { ms } from "../../core/index.ts";
import { createServerlessCheckers, runCheckers } from "../invariants/serverless-checkers.ts";
import type { ServerlessEndpointConfig } from "./endpoint-state.ts";
import { makeFixture } from "./test-fixture.ts";

type Op =
  | { kind: "add"; min: number; max: number; count: boolean; gpus: 1 | 2 }
  | { kind: "reconfigure"; ep: number; min: number; max: number; count: boolean }
  | { kind: "remove"; ep: number }
  | { kind: "submit"; ep: number; sleep: number }
  | { kind: "advance"; ms: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("add" as const), min: fc.integer({ min: 0, max: 2 }), max: fc.integer({ min: 2, max: 4 }), count: fc.boolean(), gpus: fc.constantFrom(1 as const, 2 as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("reconfigure" as const), ep: fc.nat(5), min: fc.integer({ min: 0, max: 2 }), max: fc.integer({ min: 2, max: 4 }), count: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("remove" as const), ep: fc.nat(5) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("submit" as const), ep: fc.nat(5), sleep: fc.integer({ min: 0, max: 20_000 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 15_000 }) }) },
);

function config(i: number, o: { min: number; max: number; count: boolean; gpus?: number }): ServerlessEndpointConfig {
  return {
    id: `made-${i}`, accountId: "acct-1", handler: "conformance", gpuTypeIds: ["A", "B"], gpuCount: o.gpus ?? 1,
    workersMin: o.min, workersMax: o.max, idleTimeoutMs: 2000, scalerType: o.count ? "RequestCount" : "QueueDelay", scalerValue: 1,
    executionTimeoutMs: 600_000, coldStartMs: { mean: 500, cv: 0.5 }, slug: null,
  };
}

/** What the random runs reached, to show the generator covers removals with jobs in flight. */
const seen = new Set<string>();

function run(ops: readonly Op[]) {
  const f = makeFixture(7);
  const checkers = createServerlessCheckers();
  const made: { id: string; gpus: number; alive: boolean; jobs: string[] }[] = [];
  const problems: string[] = [];
  for (const o of ops) {
    const ep = "ep" in o && made.length > 0 ? made[o.ep % made.length] : undefined;
    if (o.kind === "add") {
      made.push({ id: `made-${made.length}`, gpus: o.gpus, alive: true, jobs: [] });
      f.model.addEndpoint(config(made.length - 1, o));
    } else if (o.kind === "reconfigure" && ep?.alive) {
      f.model.reconfigureEndpoint(ep.id, config(Number(ep.id.slice(5)), { ...o, gpus: ep.gpus }));
      seen.add("reconfigure");
    } else if (o.kind === "remove" && ep?.alive) {
      const inFlight = ep.jobs.filter((id) => {
        const s = f.model.status(ep.id, "acct-1", id);
        return s.ok && (s.job.status === "IN_QUEUE" || s.job.status === "IN_PROGRESS");
      }).length;
      const cancelled = f.model.removeEndpoint(ep.id);
      if (cancelled! > 0) seen.add("remove-with-jobs");
      if (cancelled !== inFlight) problems.push(`remove ${ep.id}: cancelled ${cancelled}, ${inFlight} in flight`);
      const h = f.model.healthOf(f.model.inspect().endpoints.findIndex((e) => e.endpointId === ep.id));
      if (h.workers.idle + h.workers.running + h.workers.initializing + h.workers.throttled !== 0) problems.push(`remove ${ep.id}: workers left ${JSON.stringify(h.workers)}`);
      if (f.model.submit({ endpointId: ep.id, accountId: "acct-1", input: {} }).ok) problems.push(`remove ${ep.id}: still takes jobs`);
      ep.alive = false;
    } else if (o.kind === "submit" && ep?.alive) {
      const r = f.model.submit({ endpointId: ep.id, accountId: "acct-1", input: { op: "sleep", ms: o.sleep } });
      if (r.ok) ep.jobs.push(r.jobId);
    } else if (o.kind === "advance") {
      f.engine.runUntil(f.engine.now + ms(o.ms));
    }
    for (const p of runCheckers(checkers, { serverless: f.model.inspect(), transitions: f.transitions })) problems.push(`after ${JSON.stringify(o)}: ${p}`);
    f.transitions.length = 0;
    if (problems.length > 0) break;
  }
  // Remove everything: every GPU comes back.
  for (const e of made) if (e.alive) f.model.removeEndpoint(e.id);
  for (const id of ["ep-queue", "ep-count", "ep-shared"]) f.model.removeEndpoint(id);
  if (f.pool.leases !== 0) problems.push(`${f.pool.leases} GPU leases outlive every endpoint`);
  return { problems, hash: f.engine.log.hash() };
}

t.test("random add / reconfigure / remove / submit sequences keep every invariant", async (t) => {
  fc.assert(
    fc.property(fc.array(opArb, { minLength: 1, maxLength: 60 }), (ops) => {
      const { problems } = run(ops);
      if (problems.length > 0) throw new Error(problems.join("\n"));
    }),
    { seed: 14, numRuns: 150 },
  );
  t.same([...seen].sort(), ["reconfigure", "remove-with-jobs"], "the runs reached reconfigurations and removals with jobs in flight");
});

t.test("the same sequence gives the same event log", async (t) => {
  const ops = fc.sample(fc.array(opArb, { minLength: 30, maxLength: 30 }), { seed: 3, numRuns: 1 })[0]!;
  t.equal(run(ops).hash, run(ops).hash);
});
