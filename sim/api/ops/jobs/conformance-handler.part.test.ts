// Every row of spec/conformance-handler.md, through the job operations of the built-in
// `conformance` endpoint.
import t from "tap";
import { alphabetString } from "../../../domain/handlers/index.ts";
import { Harness, body, matchesSchema } from "./test-harness.ts";

type Job = { id: string; status: string; executionTime?: number; output?: unknown; error?: string };
type Stream = { status: string; stream: { output: unknown; metrics?: unknown }[] };

function runsync(h: Harness, input: unknown): Job {
  const r = h.settle(h.request("POST", "/v2/conformance/runsync", { query: { wait: "300000" }, body: { input } }));
  if (r.status !== 200) throw new Error(`runsync answered ${r.status}`);
  return r.body as Job;
}

t.test("{} and op echo return the input unchanged", async (t) => {
  const h = new Harness();
  const empty = runsync(h, {});
  matchesSchema(t, "RunsyncResponse", empty);
  t.equal(empty.status, "COMPLETED");
  t.same(empty.output, {});
  const input = { op: "echo", nested: { list: [1, "two", null, true] }, text: "héllo ✓" };
  t.same(runsync(h, input).output, input);
});

t.test("sleep waits N ms and returns {slept_ms: N}", async (t) => {
  const h = new Harness();
  for (const n of [0, 1, 2500]) {
    const job = runsync(h, { op: "sleep", ms: n });
    t.equal(job.status, "COMPLETED");
    t.same(job.output, { slept_ms: n });
    t.equal(job.executionTime, n, `executionTime ${n}`);
  }
});

t.test("fail ends FAILED with an error containing the message", async (t) => {
  const h = new Harness();
  const job = runsync(h, { op: "fail", message: "disk on fire" });
  matchesSchema(t, "RunsyncResponse", job);
  t.equal(job.status, "FAILED");
  t.type(job.error, "string");
  t.match(job.error, /disk on fire/);
  t.notOk("output" in job, "no output");
});

t.test("bytes returns N characters a..z repeating", async (t) => {
  const h = new Harness();
  t.equal(runsync(h, { op: "bytes", n: 0 }).output, "");
  t.equal(runsync(h, { op: "bytes", n: 30 }).output, "abcdefghijklmnopqrstuvwxyzabcd");
  t.equal((runsync(h, { op: "bytes", n: 100_000 }).output as string).length, 100_000);
});

t.test("an unknown op fails naming the op", async (t) => {
  const h = new Harness();
  const job = runsync(h, { op: "teleport" });
  t.equal(job.status, "FAILED");
  t.match(job.error, /teleport/);
});

t.test("stream: chunks appear as they are yielded and reassemble to the outputs", async (t) => {
  const h = new Harness();
  const id = h.run("conformance", { op: "stream", chunks: 4, bytes: 30, ms: 1000 });
  const got: unknown[] = [];
  let reads = 0;
  let partial = false;
  for (;;) {
    const r = h.call("GET", `/v2/conformance/stream/${id}`);
    t.equal(r.status, 200);
    matchesSchema(t, "StreamResponse", r.body, `stream read ${++reads}`);
    const s = body<Stream>(r);
    for (const c of s.stream) got.push(c.output);
    if (s.status === "IN_PROGRESS" && got.length > 0 && got.length < 4) partial = true;
    if (["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"].includes(s.status)) {
      t.equal(s.status, "COMPLETED");
      break;
    }
    h.advance(500);
    if (reads > 200) throw new Error("stream never ended");
  }
  t.ok(partial, "some chunks were read while the job was still running");
  t.same(got, [0, 1, 2, 3].map(() => alphabetString(30)), "each chunk once, in order");
  t.same(body<Job>(h.status("conformance", id)).output, got, "the completed job's output is the outputs as an array");
});

t.test("stream: outputs over 1 MB are split into chunks of at most 1 MB that join back", async (t) => {
  const h = new Harness();
  const bytes = 1_500_000;
  const id = h.run("conformance", { op: "stream", chunks: 2, bytes, ms: 0 });
  t.equal(h.finish("conformance", id), "COMPLETED");
  const r = h.call("GET", `/v2/conformance/stream/${id}`);
  matchesSchema(t, "StreamResponse", r.body);
  const s = body<Stream>(r);
  t.equal(s.status, "COMPLETED");
  t.ok(s.stream.length >= 4, `each output split (got ${s.stream.length} chunks)`);
  for (const c of s.stream) {
    t.type(c.output, "string");
    t.ok(Buffer.byteLength(c.output as string, "utf8") <= 1_000_000, "chunk at most 1 MB");
  }
  t.equal(s.stream.map((c) => c.output).join(""), alphabetString(bytes).repeat(2), "the chunks concatenate to the outputs");
  const again = body<Stream>(h.call("GET", `/v2/conformance/stream/${id}`));
  t.same(again.stream, [], "a chunk is served once");
});

t.test("stream of a job that never streams: the status and no chunks", async (t) => {
  const h = new Harness();
  const id = h.run("conformance", { op: "echo" });
  const queued = body<Stream>(h.call("GET", `/v2/conformance/stream/${id}`));
  t.same(queued, { status: "IN_QUEUE", stream: [] });
  h.finish("conformance", id);
  t.same(body<Stream>(h.call("GET", `/v2/conformance/stream/${id}`)), { status: "COMPLETED", stream: [] });
});

t.test("identical inputs give identical outputs; a retried fail job fails again with the same message", async (t) => {
  const h = new Harness();
  const a = runsync(h, { op: "bytes", n: 77 });
  const b = runsync(h, { op: "bytes", n: 77 });
  t.equal(a.output, b.output);
  const id = h.run("conformance", { op: "fail", message: "again" });
  t.equal(h.finish("conformance", id), "FAILED");
  const first = body<Job>(h.status("conformance", id)).error;
  t.equal(h.call("POST", `/v2/conformance/retry/${id}`).status, 200);
  t.equal(h.finish("conformance", id), "FAILED");
  t.equal(body<Job>(h.status("conformance", id)).error, first);
});
