import t from "tap";
import { imageGenerationHandler, IMAGE_LIMITS, type GeneratedImage } from "./image-generation.ts";
import { decodePngHeader } from "./png.ts";
import { planViolations } from "./plan-invariants.ts";
import type { HandlerPlan } from "./types.ts";

const ctx = { jobId: "job-1", seed: 1234 };

function images(p: HandlerPlan): GeneratedImage[] {
  if (p.kind !== "complete") throw new Error(`expected completion, got ${JSON.stringify(p)}`);
  return p.output as GeneratedImage[];
}

function pngOf(img: GeneratedImage): Uint8Array {
  const prefix = "data:image/png;base64,";
  if (!img.image_url.startsWith(prefix)) throw new Error("not a PNG data URI");
  return new Uint8Array(Buffer.from(img.image_url.slice(prefix.length), "base64"));
}

t.test("output is [{image_url, seed}] with a valid PNG of exactly the asked size", async (t) => {
  for (const [width, height] of [[64, 64], [512, 768], [100, 2048], [1000, 65]]) {
    const p = imageGenerationHandler.plan({ prompt: "a red fox", width, height }, ctx);
    t.same(planViolations(p), []);
    const out = images(p);
    t.equal(out.length, 1);
    t.same(Object.keys(out[0]).sort(), ["image_url", "seed"]);
    t.ok(Number.isInteger(out[0].seed));
    t.same(decodePngHeader(pngOf(out[0])), { width, height, bitDepth: 8, colorType: 2, interlace: 0 }, `${width}x${height}`);
  }
});

t.test("width and height default to 512; num_images gives consecutive seeds", async (t) => {
  const out = images(imageGenerationHandler.plan({ prompt: "x", seed: 10, num_images: 3 }, ctx));
  t.same(out.map((o) => o.seed), [10, 11, 12]);
  for (const o of out) t.match(decodePngHeader(pngOf(o)), { width: 512, height: 512 });
  t.not(out[0].image_url, out[1].image_url);
  t.same(images(imageGenerationHandler.plan({ prompt: "x", seed: IMAGE_LIMITS.seedMax, num_images: 2 }, ctx)).map((o) => o.seed), [IMAGE_LIMITS.seedMax, 0]);
});

t.test("the same prompt and seed give the same image; a different seed or prompt another", async (t) => {
  const a = images(imageGenerationHandler.plan({ prompt: "harbor", seed: 5, width: 128, height: 128 }, ctx))[0];
  const again = images(imageGenerationHandler.plan({ prompt: "harbor", seed: 5, width: 128, height: 128 }, { jobId: "other", seed: 999 }))[0];
  const otherSeed = images(imageGenerationHandler.plan({ prompt: "harbor", seed: 6, width: 128, height: 128 }, ctx))[0];
  const otherPrompt = images(imageGenerationHandler.plan({ prompt: "meadow", seed: 5, width: 128, height: 128 }, ctx))[0];
  t.equal(again.image_url, a.image_url, "an explicit seed fixes the picture, whatever the job");
  t.not(otherSeed.image_url, a.image_url);
  t.not(otherPrompt.image_url, a.image_url);
});

t.test("without a seed, one is derived from the job's seed, deterministically", async (t) => {
  const input = { prompt: "harbor", width: 64, height: 64 };
  const p1 = imageGenerationHandler.plan(input, ctx);
  t.same(imageGenerationHandler.plan(input, ctx), p1, "same job seed, deep-equal plan");
  const p2 = imageGenerationHandler.plan(input, { jobId: "job-2", seed: 1235 });
  t.not(images(p1)[0].seed, images(p2)[0].seed);
  t.not(images(p1)[0].image_url, images(p2)[0].image_url);
  t.same(images(imageGenerationHandler.plan({ ...input, seed: null }, ctx))[0].seed, images(p1)[0].seed, "null means unset");
});

t.test("duration is plausible: half a second plus time per pixel, seeded", async (t) => {
  const small = imageGenerationHandler.plan({ prompt: "x", width: 64, height: 64 }, ctx).durationMs;
  const mid = imageGenerationHandler.plan({ prompt: "x", width: 512, height: 512 }, ctx).durationMs;
  const four = imageGenerationHandler.plan({ prompt: "x", width: 512, height: 512, num_images: 4 }, ctx).durationMs;
  t.ok(small >= 450 && small < 700, `64x64 takes ${small} ms`);
  t.ok(mid >= 1700 && mid <= 2400, `512x512 takes ${mid} ms`);
  t.ok(four > 3 * mid, `four images take ${four} ms`);
  const spread = new Set(Array.from({ length: 20 }, (_, seed) => imageGenerationHandler.plan({ prompt: "x", width: 64, height: 64 }, { jobId: "j", seed }).durationMs));
  t.ok(spread.size > 5, "job seeds vary the duration");
});

t.test("bad input fails at once with a message naming the field", async (t) => {
  const cases: [unknown, RegExp][] = [
    [null, /input must be an object/],
    [[1], /input must be an object/],
    [{}, /"prompt" is required: a non-empty string/],
    [{ prompt: "" }, /"prompt" is required/],
    [{ prompt: 5 }, /"prompt" is required/],
    [{ prompt: "x".repeat(IMAGE_LIMITS.promptMaxLength + 1) }, /"prompt" must be at most 10000 characters/],
    [{ prompt: "x", width: 63 }, /"width" must be an integer from 64 to 2048, got 63/],
    [{ prompt: "x", height: 2049 }, /"height" must be an integer from 64 to 2048, got 2049/],
    [{ prompt: "x", width: 512.5 }, /"width" must be an integer/],
    [{ prompt: "x", num_images: 0 }, /"num_images" must be an integer from 1 to 4/],
    [{ prompt: "x", num_images: 5 }, /"num_images"/],
    [{ prompt: "x", seed: -1 }, /"seed" must be an integer from 0 to 4294967295/],
    [{ prompt: "x", seed: "7" }, /"seed"/],
  ];
  for (const [input, re] of cases) {
    const p = imageGenerationHandler.plan(input, ctx);
    t.equal(p.kind, "fail", JSON.stringify(input).slice(0, 60));
    if (p.kind === "fail") t.match(p.error, re);
    t.equal(p.durationMs, 0);
  }
});
