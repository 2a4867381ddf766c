import t from "tap";
import { decodePngHeader } from "../../../domain/handlers/index.ts";
import { Harness, body, matchesSchema } from "./test-harness.ts";

type ImageOut = { image_url: string; seed: number }[];

t.test("public image model: runsync with prompt, width and height gives a PNG data URI of that size", async (t) => {
  const h = new Harness();
  const r = h.settle(
    h.request("POST", "/v2/flux-1-schnell/runsync", { query: { wait: "300000" }, body: { input: { prompt: "a red fox", width: 320, height: 192 } } }),
  );
  t.equal(r.status, 200);
  matchesSchema(t, "RunsyncResponse", r.body);
  const job = body<{ status: string; output: ImageOut }>(r);
  t.equal(job.status, "COMPLETED");
  t.ok(Array.isArray(job.output) && job.output.length === 1, "an array with one image");
  const { image_url, seed } = job.output[0];
  t.ok(Number.isInteger(seed), "seed is an integer");
  const prefix = "data:image/png;base64,";
  t.ok(image_url.startsWith(prefix), "a PNG data URI");
  const png = decodePngHeader(new Uint8Array(Buffer.from(image_url.slice(prefix.length), "base64")));
  t.equal(png.width, 320);
  t.equal(png.height, 192);

  const again = h.settle(
    h.request("POST", "/v2/flux-1-schnell/runsync", { query: { wait: "300000" }, body: { input: { prompt: "a red fox", width: 320, height: 192, seed } } }),
  );
  t.equal(body<{ output: ImageOut }>(again).output[0].image_url, image_url, "same prompt and seed: the same image");
});

t.test("the image model does not stream: stream answers its status and no chunks", async (t) => {
  const h = new Harness();
  const id = h.run("flux-1-schnell", { prompt: "x", width: 64, height: 64 });
  const r = h.call("GET", `/v2/flux-1-schnell/stream/${id}`);
  t.equal(r.status, 200);
  matchesSchema(t, "StreamResponse", r.body);
  t.same(body(r), { status: "IN_QUEUE", stream: [] });
  t.equal(h.finish("flux-1-schnell", id), "COMPLETED");
  t.same(body(h.call("GET", `/v2/flux-1-schnell/stream/${id}`)), { status: "COMPLETED", stream: [] }, "final status ends a client's loop");
});

t.test("public text model: stream chunks carry output and metrics", async (t) => {
  const h = new Harness();
  const id = h.run("llama-3.1-8b-instruct", { prompt: "Tell me about GPUs", max_tokens: 40 });
  const chunks: { output: unknown; metrics?: Record<string, unknown> }[] = [];
  for (let i = 0; i < 500; i++) {
    const r = h.call("GET", `/v2/llama-3.1-8b-instruct/stream/${id}`);
    matchesSchema(t, "StreamResponse", r.body, "stream answer");
    const s = body<{ status: string; stream: typeof chunks }>(r);
    chunks.push(...s.stream);
    if (s.status === "COMPLETED") break;
    h.advance(500);
  }
  t.equal(h.statusOf("llama-3.1-8b-instruct", id), "COMPLETED");
  t.ok(chunks.length > 1, "several chunks");
  for (const c of chunks) {
    t.ok(c.metrics, "a metrics object");
    for (const k of ["input_tokens", "output_tokens", "stream_index", "avg_gen_throughput", "gpu_kv_cache_usage", "scenario"]) {
      t.ok(k in (c.metrics as object), `metrics.${k}`);
    }
  }
  t.same(chunks.map((c) => (c.metrics as { stream_index: number }).stream_index), chunks.map((_, i) => i), "stream_index counts up");
});
