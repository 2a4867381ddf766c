/**
 * Running a plan: a lane `width` wide runs that many of its units at once, its exclusive window
 * only once they are all done, one at a time; each unit's start, end and the unit it waited for
 * are kept, and the critical path follows them back from the unit that ended last. The checks
 * here wait for each other (promises), never for time.
 */
import t from "tap";
import { Client } from "./client.ts";
import { CheckRegistry } from "./check-registry.ts";
import { criticalPath, describeCriticalPath } from "./critical-path.ts";
import { resolveOptions } from "./options.ts";
import { platformOracle } from "./oracle/platform-oracle.ts";
import { Progress } from "./progress.ts";
import { runLanes } from "./run-lanes.ts";
import type { Plan } from "./schedule.ts";

const options = resolveOptions({ target: "http://127.0.0.1:9", apiKey: "k" });

function signal(): { promise: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}

function run(plan: Plan, registry: CheckRegistry) {
  return runLanes(plan, {
    registry,
    client: Client.create({ timeoutMs: 1_000, keys: options.keys }),
    options,
    target: { rest: "http://127.0.0.1:9", serverless: "http://127.0.0.1:9", endpoint: "e" },
    controlApi: false,
    oracle: platformOracle("lenient"),
    now: Date.now,
    transitions: new Set<string>(),
    progress: new Progress("quiet", 4, () => {}),
    log: () => {},
  });
}

t.test("two at a time, then the exclusive window alone; the critical path is the chain that ended last", async (t) => {
  const [A, B, C, E] = ["jobs.cancel.queued", "jobs.cancel.running", "jobs.status.values", "jobs.purge.count"] as const;
  const started = { [A]: signal(), [B]: signal(), [C]: signal() } as Record<string, ReturnType<typeof signal>>;
  const ended = { [A]: signal(), [B]: signal(), [C]: signal() } as Record<string, ReturnType<typeof signal>>;
  let running = 0;
  let exclusiveSaw: number | undefined;
  const r = new CheckRegistry();
  const shared = (id: string, body: () => Promise<void>) =>
    r.register(id, async (ctx) => {
      running++;
      started[id]!.fire();
      await body();
      running--;
      ended[id]!.fire();
      return ctx.pass();
    });
  // A and B only end once both have started: one after the other, they would never end.
  shared(A, () => started[B]!.promise);
  shared(B, async () => {
    await started[A]!.promise;
    await ended[A]!.promise;
  });
  // C takes A's place once A has ended, and ends after B.
  shared(C, () => ended[B]!.promise);
  r.register(E, async (ctx) => {
    exclusiveSaw = running;
    return ctx.pass();
  });
  const plan: Plan = {
    before: [],
    concurrent: [{ name: "jobs", units: [{ ids: [A] }, { ids: [B] }, { ids: [C] }], width: 2, exclusive: { units: [{ ids: [E] }], why: "purges" } }],
    after: [],
  };
  const result = await run(plan, r);
  t.same([...result.byId.values()].map((x) => x.status), ["pass", "pass", "pass", "pass"], "every unit ran and passed");
  t.equal(exclusiveSaw, 0, "the exclusive window started with no other unit of the lane running");
  t.same(result.timeline.map((u) => u.ids[0]), [A, B, C, E], "the order they ended in");
  const path = criticalPath(result.timeline)!;
  t.same(path.rules.map((x) => x.id), [A, C, E], "E waited for C (the last of the pool to end), C for A (its runner's unit before)");
  t.equal(path.area, "jobs");
  t.equal(path.lane, "jobs");
  t.match(describeCriticalPath(path), /^critical path: jobs ended last \(lane jobs, at [\d.]+ s\): jobs\.cancel\.queued [\d.]+ s → jobs\.status\.values [\d.]+ s → jobs\.purge\.count [\d.]+ s$/);
});

t.test("a lane after the concurrent ones waits for the one that ended last; none ran, no path", async (t) => {
  const r = new CheckRegistry();
  const slowEnd = signal();
  r.register("jobs.status.values", async (ctx) => {
    await slowEnd.promise;
    return ctx.pass();
  });
  r.register("pods.create.unknown-property", async (ctx) => {
    slowEnd.fire();
    return ctx.pass();
  });
  r.register("jobs.health.exact", (ctx) => ctx.pass());
  const result = await run(
    {
      before: [],
      concurrent: [
        { name: "jobs", units: [{ ids: ["jobs.status.values"] }] },
        { name: "pods", units: [{ ids: ["pods.create.unknown-property"] }] },
      ],
      after: [{ name: "endpoint-alone", units: [{ ids: ["jobs.health.exact"] }] }],
    },
    r,
  );
  t.same(criticalPath(result.timeline)!.rules.map((x) => x.id), ["jobs.status.values", "jobs.health.exact"]);
  t.equal(criticalPath([]), undefined);
});
