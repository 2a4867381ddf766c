import t from "tap";
import fc from "fast-check";
import { minutes, seconds } from "../../core/index.ts";
import { loadCatalog } from "../../catalog/index.ts";
import { POD_ACTIONS, podGraphqlView, podRestView, type PodCreateInput } from "./index.ts";
import { testPlatform, type TestPlatform } from "./test-platform.ts";

const bundled = loadCatalog();
const GPU_TYPES = bundled.gpuTypes.map((g) => g.id);

type Op =
  | { kind: "create"; gpu: number; count: number; cloud: "ALL" | "SECURE" | "COMMUNITY"; cpu: boolean }
  | { kind: "action"; pick: number; action: (typeof POD_ACTIONS)[number] }
  | { kind: "update"; pick: number; image: boolean; locked: boolean }
  | { kind: "advance"; by: number }
  | { kind: "read"; pick: number; at: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("create" as const),
    gpu: fc.nat(GPU_TYPES.length - 1),
    count: fc.constantFrom(1, 1, 2, 4, 8),
    cloud: fc.constantFrom("ALL", "SECURE", "COMMUNITY") as fc.Arbitrary<"ALL" | "SECURE" | "COMMUNITY">,
    cpu: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("action" as const), pick: fc.nat(), action: fc.constantFrom(...POD_ACTIONS) }),
  fc.record({ kind: fc.constant("update" as const), pick: fc.nat(), image: fc.boolean(), locked: fc.boolean() }),
  fc.record({ kind: fc.constant("advance" as const), by: fc.integer({ min: 1, max: 600 }) }),
  fc.record({ kind: fc.constant("read" as const), pick: fc.nat(), at: fc.integer({ min: 0, max: 1000 }) }),
);

/** Runs ops on a platform over the bundled catalog with outside demand; returns a trace of views. */
function run(seed: number, ops: readonly Op[], withReads: boolean, checkEveryStep = false): { trace: string[]; hash: string; p: TestPlatform } {
  const p = testPlatform(seed, { catalog: bundled, stock: { outsideIntensity: 0.5 }, pods: { failureRate: 0.1 } });
  const trace: string[] = [];
  const ids: string[] = [];
  const fail = (where: string) => {
    const v = p.violations();
    if (v.length > 0) throw new Error(`${where}: ${v.join("; ")}`);
  };
  for (const op of ops) {
    if (op.kind === "create") {
      const input: PodCreateInput = op.cpu
        ? { name: "c", image: "i", cpu: { id: "cpu3c", vcpuCount: 2 }, cloud: op.cloud }
        : { name: "g", image: "i", gpu: { id: GPU_TYPES[op.gpu]!, count: op.count }, cloud: op.cloud };
      const r = p.pods.create("acct-alpha", input);
      trace.push(r.ok ? `create ${r.pod.id} on ${r.pod.hostId}` : `refused ${r.code}`);
      if (r.ok) ids.push(r.pod.id);
    } else if (op.kind === "action" && ids.length > 0) {
      const r = p.pods.action("acct-alpha", ids[op.pick % ids.length]!, op.action);
      trace.push(r.ok ? `${op.action} -> ${r.pod.status}` : `${op.action} refused ${r.code}`);
    } else if (op.kind === "update" && ids.length > 0) {
      const r = p.pods.update("acct-alpha", ids[op.pick % ids.length]!, { locked: op.locked, ...(op.image ? { image: `i${op.pick}` } : {}) });
      trace.push(r.ok ? `update -> ${r.pod.status}` : `update refused ${r.code}`);
    } else if (op.kind === "advance") {
      if (checkEveryStep) {
        const until = p.engine.now + seconds(op.by);
        while ((p.engine.nextTime() ?? Infinity) <= until) {
          p.engine.step();
          fail(`after step ${p.engine.steps}`);
        }
        p.engine.runUntil(until);
      } else {
        p.engine.runFor(seconds(op.by));
      }
    } else if (op.kind === "read" && withReads) {
      // Reads at arbitrary (even future) times, of every kind: they must leave no trace.
      for (const pod of p.pods.list("acct-alpha")) {
        podRestView(pod, p.engine.now + op.at * 1_000_000);
        podGraphqlView(pod, p.engine.now);
      }
      p.stock.lowestPrice(GPU_TYPES[op.pick % GPU_TYPES.length]!, { gpuCount: 1 });
      p.pods.get("acct-alpha", ids[op.pick % Math.max(1, ids.length)] ?? "x");
    }
    fail(`after ${op.kind}`);
  }
  p.engine.runFor(minutes(30));
  for (const pod of p.pods.list("acct-alpha")) trace.push(JSON.stringify(podRestView(pod, p.engine.now)), JSON.stringify(podGraphqlView(pod, p.engine.now)));
  return { trace, hash: p.engine.log.hash(), p };
}

t.test("random operations keep every invariant after every engine step", async () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 1e6 }), fc.array(opArb, { maxLength: 60 }), (seed, ops) => {
      run(seed, ops, true, true);
    }),
    { numRuns: 60 },
  );
});

t.test("same seed and inputs: same views and same event-log hash; reads change nothing", async () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 1e6 }), fc.array(opArb, { minLength: 5, maxLength: 50 }), (seed, ops) => {
      const a = run(seed, ops, false);
      const b = run(seed, ops, false);
      const c = run(seed, ops, true);
      if (a.hash !== b.hash || a.hash !== c.hash) throw new Error("event-log hash differs");
      if (JSON.stringify(a.trace) !== JSON.stringify(b.trace)) throw new Error("trace differs between identical runs");
      if (JSON.stringify(a.trace) !== JSON.stringify(c.trace)) throw new Error("reads changed later results");
    }),
    { numRuns: 40 },
  );
});

t.test("a different seed gives different ids and timings", async (t) => {
  const ops: Op[] = [
    { kind: "create", gpu: 0, count: 1, cloud: "ALL", cpu: false },
    { kind: "advance", by: 600 },
  ];
  const a = run(1, ops, false);
  const b = run(2, ops, false);
  t.not(a.trace[0], b.trace[0]);
  t.not(a.hash, b.hash);
});
