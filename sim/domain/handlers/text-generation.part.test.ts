import t from "tap";
import fc from "fast-check";
import { textGenerationHandler, TEXT_LIMITS, type TextGenerationOutput } from "./text-generation.ts";
import { planViolations } from "./plan-invariants.ts";
import type { HandlerPlan, StreamEmission } from "./types.ts";

const ctx = { jobId: "job-1", seed: 77 };

function completed(p: HandlerPlan): { output: TextGenerationOutput[]; stream: readonly StreamEmission[]; durationMs: number } {
  if (p.kind !== "complete" || p.stream === undefined) throw new Error(`expected a streamed completion, got ${JSON.stringify(p)}`);
  return { output: p.output as TextGenerationOutput[], stream: p.stream, durationMs: p.durationMs };
}

const METRIC_TYPES = {
  avg_gen_throughput: "number",
  avg_prompt_throughput: "number",
  cpu_kv_cache_usage: "number",
  gpu_kv_cache_usage: "number",
  input_tokens: "number",
  output_tokens: "number",
  pending: "number",
  running: "number",
  scenario: "string",
  stream_index: "number",
  swapped: "number",
} as const;

t.test("every emission carries the spec's metrics, every field with its type", async (t) => {
  const { stream } = completed(textGenerationHandler.plan({ prompt: "Tell me about rivers", max_tokens: 40 }, ctx));
  t.ok(stream.length > 1);
  for (const [i, e] of stream.entries()) {
    t.ok(e.metrics, `emission ${i} has metrics`);
    t.same(Object.keys(e.metrics!).sort(), Object.keys(METRIC_TYPES).sort());
    for (const [k, type] of Object.entries(METRIC_TYPES)) {
      const v = (e.metrics as unknown as Record<string, unknown>)[k];
      t.equal(typeof v, type, `${k} is a ${type}`);
      if (type === "number") t.ok(Number.isFinite(v), `${k} is finite`);
    }
    t.equal(e.metrics!.stream_index, i);
    t.ok(e.metrics!.gpu_kv_cache_usage > 0 && e.metrics!.gpu_kv_cache_usage <= 1);
  }
});

t.test("emissions group a few tokens; the output is the whole text with usage", async (t) => {
  const prompt = "Explain queues in one paragraph, please.";
  const { output, stream, durationMs } = completed(textGenerationHandler.plan({ prompt, max_tokens: 100 }, ctx));
  const pieces = stream.flatMap((e) => (e.output as TextGenerationOutput).choices[0].tokens);
  t.ok(stream.every((e) => (e.output as TextGenerationOutput).choices[0].tokens.length <= 6), "at most six tokens an emission");
  t.equal(output.length, 1);
  t.same(output[0].choices[0].tokens, [pieces.join("")], "the final text is the streamed tokens joined");
  t.equal(output[0].usage.output, pieces.length);
  t.equal(output[0].usage.input, Math.ceil(prompt.length / 4));
  t.equal(stream.reduce((n, e) => n + e.metrics!.output_tokens, 0), pieces.length, "metrics count every token once");
  t.equal(stream.reduce((n, e) => n + e.metrics!.input_tokens, 0), output[0].usage.input, "and the prompt once");
  t.same(stream.map((e) => (e.output as TextGenerationOutput).usage.output), stream.map((_, i, a) => a.slice(0, i + 1).reduce((n, x) => n + x.metrics!.output_tokens, 0)), "usage.output is cumulative");
  t.equal(durationMs, stream[stream.length - 1].atMs);
  t.match(pieces[0], /^ [A-Z]/, "text starts a sentence");
});

t.test("max_tokens bounds the output; durations follow the token rate", async (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: TEXT_LIMITS.maxTokensMax }), fc.nat(), fc.string({ minLength: 1, maxLength: 200 }), (max, seed, prompt) => {
      const p = textGenerationHandler.plan({ prompt, max_tokens: max }, { jobId: "j", seed });
      const { output, durationMs } = completed(p);
      const n = output[0].usage.output;
      // Between 35 and 95 tokens a second, after a first token within about a second.
      return planViolations(p).length === 0 && n >= 1 && n <= max && durationMs >= ((n - 1) / 95) * 1000 && durationMs <= 1000 + (n / 35) * 1000 + 1;
    }),
    { numRuns: 200 },
  );
  const one = completed(textGenerationHandler.plan({ prompt: "hi", max_tokens: 1 }, ctx));
  t.equal(one.stream.length, 1);
  t.equal(one.output[0].usage.output, 1);
});

t.test("deterministic: same input and job seed, deep-equal plan; temperature 0 ignores the job seed", async (t) => {
  const input = { prompt: "A story", max_tokens: 64 };
  t.same(textGenerationHandler.plan(input, ctx), textGenerationHandler.plan(structuredClone(input), ctx));
  const text = (seed: number, temperature?: number): string =>
    completed(textGenerationHandler.plan({ ...input, temperature }, { jobId: "j", seed })).output[0].choices[0].tokens[0];
  t.not(text(1), text(2), "sampling depends on the job seed");
  t.equal(text(1, 0), text(2, 0), "greedy decoding does not");
});

t.test("sampling_params, as the vLLM worker takes them, are read too; flat keys win", async (t) => {
  const nested = completed(textGenerationHandler.plan({ prompt: "p", sampling_params: { max_tokens: 3 } }, ctx));
  t.equal(nested.output[0].usage.output, 3);
  const flat = completed(textGenerationHandler.plan({ prompt: "p", max_tokens: 2, sampling_params: { max_tokens: 3 } }, ctx));
  t.equal(flat.output[0].usage.output, 2);
});

t.test("bad input fails at once, naming the field", async (t) => {
  const cases: [unknown, RegExp][] = [
    ["hello", /input must be an object/],
    [{}, /"prompt" is required/],
    [{ prompt: "x", max_tokens: 0 }, /"max_tokens" must be an integer from 1 to 4096, got 0/],
    [{ prompt: "x", max_tokens: 4097 }, /"max_tokens"/],
    [{ prompt: "x", temperature: -0.1 }, /"temperature" must be a number from 0 to 2/],
    [{ prompt: "x", temperature: "hot" }, /"temperature"/],
    [{ prompt: "x", sampling_params: 3 }, /"sampling_params" must be an object/],
  ];
  for (const [input, re] of cases) {
    const p = textGenerationHandler.plan(input, ctx);
    t.equal(p.kind, "fail");
    if (p.kind === "fail") t.match(p.error, re);
    t.equal(p.durationMs, 0);
  }
});
