// A public text-generation (LLM) model endpoint, streaming like the platform's vLLM worker:
// each emission carries a few tokens as `{choices: [{tokens}], usage: {input, output}}` and the
// chunk-level `metrics` object of the specification. The text is pseudo-text from a seeded word
// list; timing comes from seeded prompt and generation throughputs.

import { InputError, isObject, readInt, readNumber, readString, type JsonObject } from "./input-error.ts";
import { hashString, intBetween, mix32, mulberry32 } from "./prng.ts";
import type { HandlerContext, HandlerPlan, JobHandler, StreamEmission, TextMetrics } from "./types.ts";
import { WORDS } from "./words.ts";

export const TEXT_LIMITS = {
  maxTokensMax: 4096,
  maxTokensDefault: 128,
  temperatureMax: 2,
  temperatureDefault: 0.7,
  promptMaxLength: 100_000,
  /** KV-cache capacity in tokens of the simulated GPU, for gpu_kv_cache_usage. */
  kvCacheTokens: 65_536,
} as const;

export interface TextGenerationOutput {
  readonly choices: readonly { readonly tokens: readonly string[] }[];
  readonly usage: { readonly input: number; readonly output: number };
}

/** Flat keys win; `sampling_params` is where the real vLLM worker reads them, so accept it too. */
function samplingSource(input: JsonObject): JsonObject {
  const sp = input["sampling_params"];
  if (sp === undefined) return input;
  if (!isObject(sp)) throw new InputError(`"sampling_params" must be an object`);
  return { ...sp, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
}

/** About four characters a token, as for English with common tokenizers. */
function countPromptTokens(prompt: string): number {
  return Math.max(1, Math.ceil(prompt.length / 4));
}

/** Tokens of pseudo-text: words with a leading space, sentences ended by a "." token. */
function generateTokens(rng: () => number, count: number, temperature: number): string[] {
  // Temperature widens the vocabulary from the 24 commonest words to all of them.
  const span = Math.min(WORDS.length, 24 + Math.round((temperature / TEXT_LIMITS.temperatureMax) * (WORDS.length - 24)));
  const tokens: string[] = [];
  let startOfSentence = true;
  for (let i = 0; i < count; i++) {
    if (!startOfSentence && i < count - 1 && rng() < 0.08) {
      tokens.push(".");
      startOfSentence = true;
      continue;
    }
    const w = WORDS[Math.floor(rng() * span)];
    tokens.push(" " + (startOfSentence ? w[0].toUpperCase() + w.slice(1) : w));
    startOfSentence = false;
  }
  return tokens;
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function plan(input: unknown, ctx: HandlerContext): HandlerPlan {
  try {
    if (!isObject(input)) throw new InputError("input must be an object with a \"prompt\"");
    const L = TEXT_LIMITS;
    const prompt = readString(input, "prompt", L.promptMaxLength);
    const params = samplingSource(input);
    const maxTokens = readInt(params, "max_tokens", 1, L.maxTokensMax, L.maxTokensDefault);
    const temperature = readNumber(params, "temperature", 0, L.temperatureMax, L.temperatureDefault);

    // Greedy decoding (temperature 0) depends on the prompt alone; sampling also on the job seed.
    const textSeed = temperature === 0 ? hashString(prompt) : hashString(prompt, ctx.seed);
    const textRng = mulberry32(textSeed);
    // The model stops at its end-of-sequence token or at max_tokens, whichever comes first.
    const natural = intBetween(textRng, 16, 512);
    const tokens = generateTokens(textRng, Math.min(maxTokens, natural), temperature);

    const timeRng = mulberry32(mix32(ctx.seed ^ 0x7e47));
    const genTps = intBetween(timeRng, 35, 95); // tokens per second while decoding
    const promptTps = intBetween(timeRng, 1500, 6000); // tokens per second while reading the prompt
    const perEmission = intBetween(timeRng, 2, 6);
    const inputTokens = countPromptTokens(prompt);
    const firstTokenMs = 40 + (inputTokens / promptTps) * 1000;

    const stream: StreamEmission[] = [];
    for (let start = 0, index = 0; start < tokens.length; start += perEmission, index++) {
      const batch = tokens.slice(start, start + perEmission);
      const produced = start + batch.length;
      const metrics: TextMetrics = {
        avg_gen_throughput: round(genTps * (0.95 + 0.1 * timeRng()), 2),
        avg_prompt_throughput: index === 0 ? round(promptTps * (0.95 + 0.1 * timeRng()), 2) : 0,
        cpu_kv_cache_usage: 0,
        gpu_kv_cache_usage: round((inputTokens + produced) / L.kvCacheTokens, 6),
        input_tokens: index === 0 ? inputTokens : 0,
        output_tokens: batch.length,
        pending: 0,
        running: 1,
        scenario: "stream",
        stream_index: index,
        swapped: 0,
      };
      const output: TextGenerationOutput = { choices: [{ tokens: batch }], usage: { input: inputTokens, output: produced } };
      stream.push({ atMs: Math.round(firstTokenMs + ((produced - 1) / genTps) * 1000), output, metrics });
    }
    const output: TextGenerationOutput[] = [
      { choices: [{ tokens: [tokens.join("")] }], usage: { input: inputTokens, output: tokens.length } },
    ];
    return { kind: "complete", durationMs: stream[stream.length - 1].atMs, output, stream };
  } catch (err) {
    if (err instanceof InputError) return { kind: "fail", durationMs: 0, error: err.message };
    throw err;
  }
}

export const textGenerationHandler: JobHandler = {
  name: "text-generation",
  streaming: true,
  plan,
};
