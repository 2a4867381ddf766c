// A public image-generation model endpoint. Output follows the specification: an array of
// objects with `image_url` (here a base64 PNG data URI) and the integer `seed` that made it.
// The same prompt and seed always give the same picture, as with a real diffusion model.

import { InputError, isObject, readInt, readString, type JsonObject } from "./input-error.ts";
import { lazyObject } from "./lazy-output.ts";
import { hashString, mix32, mulberry32 } from "./prng.ts";
import type { HandlerContext, HandlerPlan, JobHandler } from "./types.ts";

export const IMAGE_LIMITS = {
  sideMin: 64,
  sideMax: 2048,
  sideDefault: 512,
  imagesMax: 4,
  promptMaxLength: 10_000,
  seedMax: 0xffffffff,
} as const;

/** Timing: a fixed start-up, then time proportional to pixels; 512×512 takes about 1.5 s. */
const BASE_MS = 500;
const MS_PER_MEGAPIXEL = 1500 / (512 * 512 / 1e6);

export interface GeneratedImage {
  readonly image_url: string;
  readonly seed: number;
}

function readSeed(input: JsonObject, ctx: HandlerContext): number {
  // null means "pick one", as it does for common diffusion workers.
  if (input["seed"] === undefined || input["seed"] === null) return mix32(ctx.seed ^ 0x5eed);
  return readInt(input, "seed", 0, IMAGE_LIMITS.seedMax);
}

function plan(input: unknown, ctx: HandlerContext): HandlerPlan {
  try {
    if (!isObject(input)) throw new InputError("input must be an object with a \"prompt\"");
    const L = IMAGE_LIMITS;
    const prompt = readString(input, "prompt", L.promptMaxLength);
    const width = readInt(input, "width", L.sideMin, L.sideMax, L.sideDefault);
    const height = readInt(input, "height", L.sideMin, L.sideMax, L.sideDefault);
    const count = readInt(input, "num_images", 1, L.imagesMax, 1);
    const seed = readSeed(input, ctx);
    const output: GeneratedImage[] = [];
    for (let i = 0; i < count; i++) {
      // Consecutive seeds for a batch, as diffusion pipelines number them.
      const s = (seed + i) % (L.seedMax + 1);
      // The picture is made when the result is read (lazy-output.ts); its size is known now.
      const recipe = { kind: "mosaic-png-data-uri", width, height, seed: hashString(prompt, s) } as const;
      output.push(lazyObject({}, "image_url", recipe, { seed: s }) as unknown as GeneratedImage);
    }
    const jitter = 0.9 + 0.2 * mulberry32(mix32(ctx.seed ^ 0x1a6e))();
    const durationMs = Math.round((BASE_MS + count * ((width * height) / 1e6) * MS_PER_MEGAPIXEL) * jitter);
    return { kind: "complete", durationMs, output };
  } catch (err) {
    if (err instanceof InputError) return { kind: "fail", durationMs: 0, error: err.message };
    throw err;
  }
}

export const imageGenerationHandler: JobHandler = {
  name: "image-generation",
  streaming: false,
  plan,
};
