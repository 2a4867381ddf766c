// An image job's pictures are made when read, not when the job runs: the plan knows each data
// URI's exact length without rendering (png-size.ts, RunSizer), the memory budget counts that
// length, and the bytes are those the eager renderer made (hashes recorded before the change).
import t from "tap";
import fc from "fast-check";
import { createHash } from "node:crypto";
import { jsonSizeAtMost } from "../serverless/json-size.ts";
import { imageGenerationHandler } from "./image-generation.ts";
import { lazyPartOf, recipeLength, renderRecipe } from "./lazy-output.ts";
import { type CellPattern, drawCells, mosaicPattern } from "./mosaic.ts";
import { encodePngRgb } from "./png.ts";
import { pngLengthOfCells } from "./png-size.ts";
import { RunSizer, zlibCompressRuns } from "./zlib-rle.ts";

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

t.test("RunSizer tells zlibCompressRuns' exact length from the runs alone", async (t) => {
  const runs = fc.array(fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 700 })), { maxLength: 60 });
  fc.assert(
    fc.property(runs, (rs) => {
      const sizer = new RunSizer();
      const bytes: number[] = [];
      for (const [v, n] of rs) {
        sizer.add(v, n);
        for (let i = 0; i < n; i++) bytes.push(v);
      }
      return sizer.bytes() === zlibCompressRuns(Uint8Array.from(bytes)).length;
    }),
    { numRuns: 300 },
  );
});

t.test("the PNG length of a mosaic is known without drawing it", async (t) => {
  for (let i = 0; i < 120; i++) {
    const w = 1 + ((i * 7919) % 500);
    const h = 1 + ((i * 104_729) % 200);
    const p = mosaicPattern((i * 2_654_435_761) >>> 0);
    t.equal(pngLengthOfCells(w, h, p), encodePngRgb(w, h, drawCells(w, h, p)).length, `${w}x${h} seed ${i}`);
  }
  // Bands equal to the band above are Up-filtered: a pattern whose colours repeat every 3 bands.
  const repeating: CellPattern = { cell: 8, color: (cx, cy, c) => (cx * 37 + (cy % 3 === 0 ? 0 : 90) + c * 11) & 0xff };
  for (const [w, h] of [[64, 64], [70, 33], [1, 100]] as const) {
    t.equal(pngLengthOfCells(w, h, repeating), encodePngRgb(w, h, drawCells(w, h, repeating)).length, `repeating bands ${w}x${h}`);
  }
  const recipe = { kind: "mosaic-png-data-uri", width: 300, height: 200, seed: 99 } as const;
  t.equal(recipeLength(recipe), renderRecipe(recipe).length, "the data URI's length");
});

t.test("an image job's output: the same bytes as before, made only when read", async (t) => {
  // Recorded from the eager renderer before outputs became lazy: JSON.stringify of the plan.
  const recorded: [unknown, number, string, number][] = [
    [{ prompt: "a red fox", width: 2048, height: 2048, num_images: 4 }, 7, "6da5dfdec97bafba3862d42019cdfcb9d1e317b82fe8656080f934fef41ae7c5", 956_645],
    [{ prompt: "blue", width: 65, height: 1000, num_images: 3, seed: 4_294_967_295 }, 1, "c6a0e8b9b7acd5cb4a9a10b446152541b94d03a27ce687dffed72314e6fbfa27", 29_105],
    [{ prompt: "x", width: 2047, height: 77, num_images: 1 }, 99, "7bb694cf56477b6447149264022bf27198452d0c80aad75ba81e81f746341dcc", 8_917],
    [{ prompt: "night", width: 512, height: 512 }, 12_345, "34aaf1757e6850554e90372580fa76e345a56bc0d2737cd994adc9e3b64d8b88", 16_420],
  ];
  for (const [input, seed, hash, length] of recorded) {
    const plan = imageGenerationHandler.plan(input, { jobId: "job-1", seed });
    if (plan.kind !== "complete") throw new Error(`expected completion, got ${JSON.stringify(plan)}`);
    const images = plan.output as object[];
    t.ok(images.every((img) => lazyPartOf(img)?.value === undefined), "no picture is made by the plan");
    const size = jsonSizeAtMost(plan.output, Number.MAX_SAFE_INTEGER);
    t.ok(images.every((img) => lazyPartOf(img)?.value === undefined), "nor by the budget's size");
    const json = JSON.stringify(plan);
    t.equal(sha256(json), hash, `${JSON.stringify(input)}: the recorded bytes`);
    t.equal(json.length, length);
    const plain: unknown = JSON.parse(JSON.stringify(plan.output));
    t.equal(size, jsonSizeAtMost(plain, Number.MAX_SAFE_INTEGER), "the budget counts what it counted for the eager output");
    t.same(Object.keys(images[0]!), ["image_url", "seed"], "keys in the same order");
  }
});
