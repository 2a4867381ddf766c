// The model's state captured and restored in place (model-graph.ts): closures keep working on the
// restored objects, what cannot be restored says so, and a model restored at any point of a random
// session goes on exactly as the original does, answer for answer.
import t from "tap";
import fc from "fast-check";
import { PlatformBackend, checkCapture } from "../platform-backend.ts";
import type { ApiRequest, HttpMethod } from "../../api/types.ts";
import { serialize } from "node:v8";
import { APART_CHARS, GraphError, capture, captureDifference, joinCapture, restore, splitCaptureBytes } from "./model-graph.ts";

class Counter {
  count = 0;
  readonly tick: () => number;
  constructor(readonly log: number[] = []) {
    this.tick = () => {
      this.log.push(++this.count);
      return this.count;
    };
  }
}

class Item {
  constructor(readonly name: string, public next: Item | undefined) {}
}

function model() {
  const counter = new Counter();
  const shared = { label: "shared" };
  return { counter, a: { shared }, b: { shared }, items: [] as Item[], byName: new Map<string, Item>(), seen: new Set<string>(), bits: new Float64Array(4), constants: Object.freeze({ k: 1 }) };
}

t.test("a graph restores in place: shared objects, cycles, collections, typed arrays, and closures that hold the restored objects", async (t) => {
  const live = model();
  live.counter.tick();
  live.counter.tick();
  const x = new Item("x", undefined);
  const y = new Item("y", x);
  x.next = y; // a cycle
  live.items.push(x, y);
  live.byName.set("x", x).set("y", y);
  live.seen.add("x");
  live.bits[2] = Number.NaN;
  live.bits[3] = -0;
  const bytes = capture(live);

  const fresh = model();
  const tick = fresh.counter.tick;
  // A fresh model holds no Item yet: its class is given.
  restore(fresh, bytes, [Item]);
  t.equal(captureDifference(bytes, capture(fresh)), undefined, "captured again, the same graph");
  t.equal(fresh.counter.tick, tick, "the fresh model's closure is kept");
  t.equal(tick(), 3, "and it counts on from the restored count");
  t.same(fresh.counter.log, [1, 2, 3]);
  t.equal(fresh.a.shared, fresh.b.shared, "a shared object stays shared");
  t.equal(fresh.items[0]!.next!.next, fresh.items[0], "a cycle stays a cycle");
  t.ok(fresh.items[0] instanceof Item, "a class instance keeps its class");
  t.equal(fresh.byName.get("y"), fresh.items[1]);
  t.ok(fresh.seen.has("x"));
  t.ok(Number.isNaN(fresh.bits[2]!) && Object.is(fresh.bits[3], -0), "typed arrays keep their bits");
  t.not(fresh.bits, live.bits);
});

t.test("what cannot be restored throws GraphError", async (t) => {
  t.throws(() => capture({ p: Promise.resolve() }), GraphError, "a promise cannot be captured");
  t.throws(() => capture({ w: new WeakMap() }), GraphError);
  const withFn = capture({ f: () => 1 });
  t.throws(() => restore({}, withFn), GraphError, "a function with no counterpart in the fresh model");
  t.doesNotThrow(() => restore({ f: () => 2 }, withFn), "the fresh model's function at the same place");
  class Unknown {
    v = 1;
  }
  const withClass = capture({ u: new Unknown() });
  t.throws(() => restore({}, withClass), /class Unknown is not known/);
  t.doesNotThrow(() => restore({}, withClass, [Unknown]), "unless the class is given");
  t.throws(() => restore({}, Buffer.from("not a snapshot")), GraphError);
});

const ALPHA = "Bearer cpsim_alpha_full_7f3a9c2e41b6d805";
const BETA = "Bearer cpsim_beta_full_91d4e6a2c7b3f058";
const LOAD = "Bearer cpsim_load_exempt_5b0e8d3a6c1f9247";

/** One step of a session: a request built from the ids seen so far, or a clock advance. */
type Step = { kind: "req"; build: (ids: Ids) => Omit<ApiRequest, "query"> } | { kind: "advance"; ms: number };
interface Ids {
  pods: string[];
  jobs: string[];
  volumes: string[];
  templates: string[];
  images: string[];
}

const pick = (list: readonly string[], i: number) => list[i % Math.max(1, list.length)] ?? "none";
const req = (method: HttpMethod, path: string, key: string | undefined, body?: unknown) => ({ method, path, headers: key ? { authorization: key } : {}, body });

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ key: fc.constantFrom(ALPHA, BETA), vcpu: fc.constantFrom(2, 4), n: fc.nat(99) }).map(
    ({ key, vcpu, n }): Step => ({ kind: "req", build: () => req("POST", "/v2/pods", key, { name: `p${n}`, image: "ubuntu:22.04", cpu: { id: "cpu3c", vcpuCount: vcpu } }) }),
  ),
  fc.nat(99).map((n): Step => ({ kind: "req", build: () => req("POST", "/v2/pods", ALPHA, { name: `g${n}`, image: "ubuntu:22.04", gpu: { id: "NVIDIA GeForce RTX 4090" } }) })),
  fc.record({ i: fc.nat(), action: fc.constantFrom("stop", "start", "restart", "terminate") }).map(
    ({ i, action }): Step => ({ kind: "req", build: (ids) => req("POST", `/v2/pods/${pick(ids.pods, i)}/action`, ALPHA, { action }) }),
  ),
  fc.record({ i: fc.nat(), n: fc.nat(99) }).map(({ i, n }): Step => ({ kind: "req", build: (ids) => req("PATCH", `/v2/pods/${pick(ids.pods, i)}`, ALPHA, { name: `r${n}` }) })),
  fc.nat().map((i): Step => ({ kind: "req", build: (ids) => req("DELETE", `/v2/pods/${pick(ids.pods, i)}`, ALPHA) })),
  fc.nat(99).map((n): Step => ({ kind: "req", build: () => req("POST", "/v2/networkvolumes", ALPHA, { name: `v${n}`, size: 10 + n, dataCenterId: "EU-RO-1" }) })),
  fc.nat(99).map((n): Step => ({ kind: "req", build: () => req("POST", "/v2/templates", ALPHA, { name: `t${n}`, image: "ubuntu:22.04", env: { N: String(n) } }) })),
  fc
    .record({ op: fc.constantFrom("sleep", "bytes", "fail", "stream", "echo"), n: fc.nat(20_000), hook: fc.boolean() })
    .map(({ op, n, hook }): Step => ({
      kind: "req",
      build: () =>
        req("POST", "/v2/conformance/run", LOAD, {
          input: op === "sleep" ? { op, ms: n } : op === "bytes" ? { op, n: n % 4000 } : op === "fail" ? { op, message: `m${n}` } : op === "stream" ? { op, chunks: 1 + (n % 5), bytes: 8, ms: n % 900 } : { op, value: n },
          ...(hook ? { webhook: "http://127.0.0.1:9/hook" } : {}),
        }),
    })),
  fc.nat(5000).map((ms): Step => ({ kind: "req", build: () => req("POST", "/v2/conformance/runsync", LOAD, { input: { op: "sleep", ms } }) })),
  // An image job: its output's picture is made when read (a lazy output), and kept as its recipe.
  fc.nat(1000).map((n): Step => ({ kind: "req", build: () => req("POST", "/v2/flux-1-schnell/run", ALPHA, { input: { prompt: `p${n}`, width: 64, height: 64, seed: n } }) })),
  fc.nat().map((i): Step => ({ kind: "req", build: (ids) => req("GET", `/v2/flux-1-schnell/status/${pick(ids.images, i)}`, ALPHA) })),
  fc.nat().map((i): Step => ({ kind: "req", build: (ids) => req("POST", `/v2/conformance/cancel/${pick(ids.jobs, i)}`, LOAD) })),
  fc.nat().map((i): Step => ({ kind: "req", build: (ids) => req("POST", `/v2/conformance/retry/${pick(ids.jobs, i)}`, LOAD) })),
  fc.nat().map((i): Step => ({ kind: "req", build: (ids) => req("GET", `/v2/conformance/status/${pick(ids.jobs, i)}`, LOAD) })),
  fc.nat().map((i): Step => ({ kind: "req", build: (ids) => req("GET", `/v2/conformance/stream/${pick(ids.jobs, i)}`, LOAD) })),
  fc.nat(99).map((n): Step => ({ kind: "req", build: () => req("POST", "/v2/llama-3.1-8b-instruct/run", ALPHA, { input: { prompt: `say ${n}`, max_tokens: 1 + (n % 40) } }) })),
  fc.nat(99).map((n): Step => ({ kind: "req", build: () => req("POST", "/v2/sandboxes", ALPHA, { imageName: "python:3.11-slim", name: `s${n}`, cpuFlavorId: "cpu3c", vcpuCount: 2, idleTimeoutSeconds: 30 + n }) })),
  fc.nat(99).map((n): Step => ({ kind: "req", build: () => req("POST", "/v2/containerregistryauth", ALPHA, { name: `r${n}`, username: "u", password: "p" }) })),
  fc.nat(99).map((n): Step => ({ kind: "req", build: () => req("POST", "/graphql", ALPHA, { query: `mutation { createFlashApp(input: {name: "app${n}"}) { id } }` }) })),
  fc.nat(99).map((n): Step => ({ kind: "req", build: () => req("POST", "/graphql", ALPHA, { query: `mutation { globalStoreBucketCreate(input: {name: "gv${n}"}) { id } }` }) })),
  fc.nat(99).map((n): Step => ({ kind: "req", build: () => req("POST", "/graphql", BETA, { query: `mutation { saveTemplate(input: {name: "gt${n}", imageName: "u", env: [{key: "A", value: "${n}"}]}) { id } }` }) })),
  fc.constant<Step>({ kind: "req", build: () => req("POST", "/v2/conformance/purge-queue", LOAD) }),
  fc.constant<Step>({ kind: "req", build: () => req("GET", "/v2/conformance/health", LOAD) }),
  fc.nat().map((i): Step => ({ kind: "req", build: (ids) => req("POST", "/graphql", ALPHA, { query: `mutation { podStop(input: {podId: "${pick(ids.pods, i)}"}) { id desiredStatus } }` }) })),
  fc.constant<Step>({ kind: "req", build: () => req("POST", "/graphql", ALPHA, { query: "query { myself { pods { id desiredStatus costPerHr } } }" }) }),
  fc.constant<Step>({ kind: "req", build: () => req("GET", "/v2/pods", BETA) }),
  fc.constant<Step>({ kind: "req", build: () => req("POST", "/v2/pods", undefined, { name: "nokey" }) }),
  fc.integer({ min: 1, max: 120_000 }).map((ms): Step => ({ kind: "advance", ms })),
);

/** Runs steps on a backend; returns each answer as text and collects the ids it hands out. */
function run(backend: PlatformBackend, steps: readonly Step[], ids: Ids): string[] {
  const out: string[] = [];
  for (const step of steps) {
    if (step.kind === "advance") {
      backend.advanceTo(backend.now() + step.ms * 1000);
      for (const d of backend.drainWebhooks()) backend.webhookResult(d, false);
      out.push(`t=${backend.now()}`);
      continue;
    }
    const r = step.build(ids);
    const outcome = backend.handle({ ...r, query: Object.create(null) as Record<string, string> });
    const body = outcome.kind === "response" ? outcome.response.body : undefined;
    const id = (body as { id?: unknown } | undefined)?.id;
    if (typeof id === "string") {
      if (r.path === "/v2/pods") ids.pods.push(id);
      else if (r.path.startsWith("/v2/conformance/run")) ids.jobs.push(id);
      else if (r.path === "/v2/flux-1-schnell/run") ids.images.push(id);
      else if (r.path === "/v2/networkvolumes") ids.volumes.push(id);
      else if (r.path === "/v2/templates") ids.templates.push(id);
    }
    out.push(`${r.method} ${r.path} → ${outcome.kind === "response" ? `${outcome.response.status} ${JSON.stringify(body)}` : outcome.kind}`);
  }
  return out;
}

t.test("a model restored at any point of a session goes on as the original does, answer for answer", async (t) => {
  let runs = 0;
  const statuses = new Set<string>();
  fc.assert(
    fc.property(fc.array(stepArb, { minLength: 1, maxLength: 60 }), fc.array(stepArb, { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 1000 }), (before, after, seed) => {
      runs++;
      const live = new PlatformBackend({ seed });
      const ids: Ids = { pods: [], jobs: [], volumes: [], templates: [], images: [] };
      run(live, before, ids);
      const bytes = live.captureState()!;
      const restored = new PlatformBackend({ seed });
      restored.restoreState(bytes);
      if (captureDifference(bytes, restored.captureState()!) !== undefined) return false;
      const idsCopy: Ids = { pods: [...ids.pods], jobs: [...ids.jobs], volumes: [...ids.volumes], templates: [...ids.templates], images: [...ids.images] };
      const a = run(live, after, ids);
      const b = run(restored, after, idsCopy);
      t.same(b, a, "the same answers after the restore");
      for (const line of [...a]) statuses.add(line.replace(/ (\{.*|undefined)$/, "").replace(/\/(?!conformance|networkvolumes|templates|flux-1-schnell|llama-3\.1-8b-instruct|containerregistryauth|sandboxes)[a-z0-9-]{8,}/g, "/ID"));
      return captureDifference(live.captureState()!, restored.captureState()!) === undefined;
    }),
    { seed: 20261127, numRuns: 50 },
  );
  t.equal(runs, 50);
  // The sessions did things: pods made and stopped, volumes and templates made, jobs run, cancelled.
  for (const done of ["POST /v2/pods → 201", "POST /v2/pods/ID/action → 204", "POST /v2/networkvolumes → 201", "POST /v2/templates → 201", "POST /v2/conformance/run → 200", "POST /v2/conformance/cancel/ID → 200", "POST /v2/flux-1-schnell/run → 200", "GET /v2/flux-1-schnell/status/ID → 200", "GET /v2/conformance/stream/ID → 200", "POST /v2/llama-3.1-8b-instruct/run → 200", "POST /v2/sandboxes → 201", "POST /v2/containerregistryauth → 201", "POST /graphql → 200"]) {
    t.ok(statuses.has(done), `seen: ${done}`);
  }
});

t.test("an image job's output is kept as its recipe and made again, the same picture, when read after a restore", async (t) => {
  const live = new PlatformBackend({ seed: 9 });
  const ids: Ids = { pods: [], jobs: [], volumes: [], templates: [], images: [] };
  run(live, [{ kind: "req", build: () => req("POST", "/v2/flux-1-schnell/run", ALPHA, { input: { prompt: "a cat", width: 1024, height: 1024, seed: 4 } }) }, { kind: "advance", ms: 600_000 }], ids);
  const status = (b: PlatformBackend) => run(b, [{ kind: "req", build: (i) => req("GET", `/v2/flux-1-schnell/status/${i.images[0]}`, ALPHA) }], ids)[0]!;
  const unread = live.captureState()!;
  const read = status(live); // made now, and kept by the live output
  const bytes = live.captureState()!;
  // (The read itself changes a little: its rate-limit window.)
  t.ok(bytes.length - unread.length < read.length / 2, `the capture grew by ${bytes.length - unread.length} bytes, not by the ${read.length} of the made picture: it keeps the recipe`);
  const restored = new PlatformBackend({ seed: 9 });
  restored.restoreState(bytes);
  t.match(read, /"status":"COMPLETED".*data:image\/png;base64,/, "the job completed with a picture");
  t.equal(status(restored), read, "the restored model answers the same picture");
});

t.test("checkCapture restores into a second model and finds nothing to say on a faithful capture", async (t) => {
  const live = new PlatformBackend({ seed: 5 });
  run(live, fc.sample(fc.array(stepArb, { minLength: 30, maxLength: 30 }), { seed: 3, numRuns: 1 })[0]!, { pods: [], jobs: [], volumes: [], templates: [], images: [] });
  const bytes = live.captureState()!;
  t.equal(checkCapture({ seed: 0 }, bytes, 5), undefined);
  // A capture of another seed's model is not this one's state: the check says where they part.
  const other = new PlatformBackend({ seed: 6 }).captureState()!;
  t.type(captureDifference(bytes, other), "string");
});

t.test("a split capture keeps long strings apart and joins to what a whole capture holds", async (t) => {
  const live = new PlatformBackend({ seed: 7 });
  const long = "p".repeat(APART_CHARS) + "€"; // a two-byte string
  const ids: Ids = { pods: [], jobs: [], volumes: [], templates: [], images: [] };
  run(live, [0, 1, 2].map((i) => ({ kind: "req" as const, build: () => req("POST", "/v2/conformance/run", LOAD, { input: { op: "sleep", ms: 1, pad: long.slice(i) } }) })), ids);
  const split = live.captureStateApart()!;
  t.equal(split.texts.length, 2, "the two inputs of APART_CHARS or more are apart, the shorter one is not");
  const whole = live.captureState()!;
  t.ok(whole.length - split.table.length > 2 * APART_CHARS, `the table (${split.table.length} bytes of ${whole.length}) holds none of them`);
  const joined = joinCapture(split.table, split.texts.map((s) => serialize(s)));
  t.equal(captureDifference(joined, whole), undefined, "joined, what a whole capture holds");
  t.ok(joined.includes(Buffer.from(long.slice(1), "utf16le")), "the texts are in it");
  const told = splitCaptureBytes(split);
  t.ok(told <= whole.length && told >= whole.length / 2, `its size is told before the join (${told} of ${whole.length} bytes: a two-byte string counts half)`);
  t.throws(() => joinCapture(split.table, [serialize(long)]), GraphError, "a text missing is an error, not a hole");
});
