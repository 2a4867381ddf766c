import t from "tap";
import fc from "fast-check";
import { ms } from "../../core/index.ts";
import { createServerlessCheckers, runCheckers } from "../invariants/serverless-checkers.ts";
import { makeFixture } from "./test-fixture.ts";
import type { Fixture } from "./test-fixture.ts";
import type { JobStatus } from "./job-status.ts";

type Op =
  | { kind: "submit"; ep: number; account: number; input: unknown; sync: boolean; low: boolean; ttl?: number; timeout?: number }
  | { kind: "cancel" | "retry" | "stream" | "foreign"; job: number }
  | { kind: "status"; job: number; ttl?: number }
  | { kind: "purge"; ep: number; account: number }
  | { kind: "advance"; ms: number }
  | { kind: "take" | "give"; type: "A" | "B"; n: number };

const EPS = ["ep-queue", "ep-count", "shared-model"];
const ACCTS = ["acct-1", "acct-2"];
/** The account allowed on each endpoint (-1: any). */
const OWNER = [0, 1, -1];

const input = fc.oneof(
  fc.record({ op: fc.constant("sleep"), ms: fc.integer({ min: 0, max: 15_000 }) }),
  fc.record({ op: fc.constant("fail"), message: fc.constant("boom") }),
  fc.constant({}),
  fc.record({ op: fc.constant("stream"), chunks: fc.integer({ min: 0, max: 3 }), bytes: fc.integer({ min: 1, max: 8 }), ms: fc.integer({ min: 0, max: 900 }) }),
);

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("submit" as const), ep: fc.integer({ min: 0, max: 2 }), account: fc.integer({ min: 0, max: 1 }), input, sync: fc.boolean(), low: fc.boolean(), ttl: fc.option(fc.integer({ min: 10_000, max: 90_000 }), { nil: undefined }), timeout: fc.option(fc.integer({ min: 5000, max: 9000 }), { nil: undefined }) }, { requiredKeys: ["kind", "ep", "account", "input", "sync", "low"] }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom("cancel" as const, "retry" as const, "stream" as const, "foreign" as const), job: fc.nat(40) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("status" as const), job: fc.nat(40), ttl: fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: undefined }) }, { requiredKeys: ["kind", "job"] }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("purge" as const), ep: fc.integer({ min: 0, max: 2 }), account: fc.integer({ min: 0, max: 1 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 12_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom("take" as const, "give" as const), type: fc.constantFrom("A" as const, "B" as const), n: fc.integer({ min: 1, max: 3 }) }) },
);

/** Every kind of move the random runs produced, to show the generator reaches them all. */
const causesSeen = new Set<string>();

interface Submitted {
  ep: number;
  account: number;
  id: string;
  statusTtl?: boolean;
}

/** Runs ops, checking every invariant and each operation's contract after every step. Returns a trace. */
function run(f: Fixture, ops: readonly Op[], extraReads: boolean): { problems: string[]; trace: string[] } {
  const checkers = createServerlessCheckers();
  const jobs: Submitted[] = [];
  const problems: string[] = [];
  const trace: string[] = [];
  const taken = { A: 0, B: 0 };
  const peek = (j: Submitted): JobStatus | undefined => {
    const r = f.model.status(EPS[j.ep], ACCTS[j.account], j.id);
    return r.ok ? r.job.status : undefined;
  };
  for (const o of ops) {
    const j = "job" in o && jobs.length > 0 ? jobs[o.job % jobs.length] : undefined;
    const before = j === undefined ? undefined : peek(j);
    let outcome = "";
    switch (o.kind) {
      case "submit": {
        const r = f.model.submit({
          endpointId: EPS[o.ep],
          accountId: ACCTS[o.account],
          input: o.input,
          mode: o.sync ? "runsync" : "run",
          policy: { lowPriority: o.low, ttl: o.ttl, executionTimeout: o.timeout },
        });
        const allowed = OWNER[o.ep] < 0 || OWNER[o.ep] === o.account;
        if (r.ok !== allowed) problems.push(`submit on ${EPS[o.ep]} by ${ACCTS[o.account]}: ok=${r.ok}`);
        if (r.ok) jobs.push({ ep: o.ep, account: o.account, id: r.jobId });
        outcome = r.ok ? r.jobId : r.error;
        break;
      }
      case "cancel": {
        if (j === undefined) break;
        const r = f.model.cancel(EPS[j.ep], ACCTS[j.account], j.id);
        const expectOk = before === "IN_QUEUE" || before === "IN_PROGRESS";
        if (r.ok !== expectOk) problems.push(`cancel of a ${before} job: ok=${r.ok}`);
        // A status ttl that already passed makes the result expire the moment the job is final.
        const after = peek(j);
        if (r.ok && after !== "CANCELLED" && !(after === undefined && j.statusTtl)) problems.push(`cancelled job reads ${after}`);
        outcome = r.ok ? r.status : r.error;
        break;
      }
      case "retry": {
        if (j === undefined) break;
        const r = f.model.retry(EPS[j.ep], ACCTS[j.account], j.id);
        const expectOk = before === "FAILED" || before === "TIMED_OUT";
        if (r.ok !== expectOk) problems.push(`retry of a ${before} job: ok=${r.ok}`);
        if (!r.ok && before !== undefined && r.error !== "conflict") problems.push(`retry of a ${before} job: ${r.error}`);
        if (before === undefined && (r.ok || r.error !== "not-found")) problems.push("retry of a gone job did not give not-found");
        outcome = r.ok ? r.status : r.error;
        break;
      }
      case "stream": {
        if (j === undefined) break;
        const r = f.model.stream(EPS[j.ep], ACCTS[j.account], j.id);
        outcome = r.ok ? `${r.status}:${r.stream.length}` : r.error;
        break;
      }
      case "foreign": {
        if (j === undefined) break;
        // Another account never sees the job (on its own endpoint it is forbidden outright).
        const other = ACCTS[1 - j.account];
        const r = f.model.status(EPS[j.ep], other, j.id);
        if (r.ok) problems.push(`account ${other} read a job of ${ACCTS[j.account]}`);
        break;
      }
      case "status": {
        if (j === undefined) break;
        const r = f.model.status(EPS[j.ep], ACCTS[j.account], j.id, { ttlMs: o.ttl });
        if (o.ttl !== undefined) j.statusTtl = true;
        outcome = r.ok ? r.job.status : r.error;
        break;
      }
      case "purge": {
        const inProgressBefore = f.model.inspect().jobs.filter((x) => x.status === "IN_PROGRESS").length;
        const r = f.model.purgeQueue(EPS[o.ep], ACCTS[o.account]);
        const inProgressAfter = f.model.inspect().jobs.filter((x) => x.status === "IN_PROGRESS").length;
        if (inProgressAfter !== inProgressBefore) problems.push(`purge changed IN_PROGRESS count ${inProgressBefore} → ${inProgressAfter}`);
        outcome = r.ok ? String(r.removed) : r.error;
        break;
      }
      case "advance":
        f.engine.runFor(ms(o.ms));
        break;
      case "take": {
        const n = Math.min(o.n, f.pool.available(o.type));
        f.pool.take(o.type, n);
        taken[o.type] += n;
        break;
      }
      case "give": {
        const n = Math.min(o.n, taken[o.type]);
        taken[o.type] -= n;
        if (n > 0) f.pool.give(o.type, n);
        break;
      }
    }
    trace.push(`${o.kind}:${outcome}`);
    if (extraReads) {
      for (const ep of EPS) f.model.health(ep, "acct-1");
      for (const x of jobs) f.model.status(EPS[x.ep], ACCTS[x.account], x.id);
    }
    for (const x of f.transitions) causesSeen.add(`${x.from}>${x.to}:${x.cause}`);
    const found = runCheckers(checkers, { serverless: f.model.inspect(), transitions: f.transitions });
    f.transitions.length = 0;
    for (const p of found) problems.push(`after ${JSON.stringify(o)}: ${p}`);
    if (problems.length > 0) break;
  }
  return { problems, trace };
}

t.test("random operation sequences keep every invariant after every step", async (t) => {
  fc.assert(
    fc.property(fc.array(op, { minLength: 10, maxLength: 120, size: "max" }), fc.integer(), (ops, seed) => {
      const { problems } = run(makeFixture(seed), ops, false);
      if (problems.length > 0) throw new Error(problems.slice(0, 5).join("\n"));
    }),
    { numRuns: 300 },
  );
  for (const move of [
    "(none)>IN_QUEUE:submit",
    "IN_QUEUE>IN_PROGRESS:start",
    "IN_PROGRESS>COMPLETED:finish",
    "IN_PROGRESS>FAILED:finish",
    "IN_PROGRESS>TIMED_OUT:timeout",
    "IN_QUEUE>CANCELLED:cancel",
    "IN_PROGRESS>CANCELLED:cancel",
    "FAILED>IN_QUEUE:retry",
    "TIMED_OUT>IN_QUEUE:retry",
    "IN_QUEUE>(gone):purge",
    "COMPLETED>(gone):expire",
    "IN_QUEUE>(gone):expire",
    "IN_PROGRESS>(gone):expire",
  ]) {
    t.ok(causesSeen.has(move), `the random runs reached ${move}`);
  }
});

t.test("determinism: same seed and ops give the same log hash; reads change nothing later", async (t) => {
  fc.assert(
    fc.property(fc.array(op, { minLength: 10, maxLength: 100, size: "max" }), fc.integer(), (ops, seed) => {
      const a = makeFixture(seed);
      const b = makeFixture(seed);
      const c = makeFixture(seed);
      const ra = run(a, ops, false);
      const rb = run(b, ops, false);
      const rc = run(c, ops, true);
      // Let everything finish and expire, so later effects of any difference would show.
      for (const f of [a, b, c]) f.engine.runFor(ms(200_000));
      return (
        a.engine.log.hash() === b.engine.log.hash() &&
        a.engine.log.hash() === c.engine.log.hash() &&
        JSON.stringify(ra.trace) === JSON.stringify(rb.trace) &&
        JSON.stringify(ra.trace.filter((x) => !x.startsWith("stream"))) === JSON.stringify(rc.trace.filter((x) => !x.startsWith("stream")))
      );
    }),
    { numRuns: 60 },
  );
  t.pass();
});

t.test("after everything expires no job, queue entry, listener or worker above the minimum remains", async (t) => {
  fc.assert(
    fc.property(fc.array(op, { minLength: 10, maxLength: 120, size: "max" }), fc.integer(), (ops, seed) => {
      const f = makeFixture(seed);
      run(f, ops, false);
      f.pool.give("A", 100);
      f.pool.give("B", 100);
      f.engine.runFor(ms(400_000));
      const s = f.model.stats();
      return s.heldJobs === 0 && s.queueEntries === 0 && s.listeners === 0 && s.streams === 0 && s.workers === 1 && s.expiryEntries === 0;
    }),
    { numRuns: 80 },
  );
  t.pass();
});
