// The simulated images are the same bytes on every machine and Node version (the reason png.ts
// keeps its own deflate rather than pngjs over node:zlib): their SHA-256 is pinned here, and
// pngjs, an independent decoder, reads back exactly the pixels that were encoded.
import t from "tap";
import { createHash } from "node:crypto";
import { PNG } from "pngjs";
import { imageGenerationHandler, type GeneratedImage } from "./image-generation.ts";
import { encodePngRgb } from "./png.ts";

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

/** Flat bands, a repeated row and a gradient: every filter and run length the encoder uses. */
function testImage(width: number, height: number): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const band = y < height / 3;
      rgb[i] = band ? 200 : (x * 7 + y) & 0xff;
      rgb[i + 1] = band ? 30 : x < width / 2 ? 0 : 255;
      rgb[i + 2] = (y * 13) & 0xff;
    }
  }
  return rgb;
}

function pixelsOf(png: Uint8Array): { width: number; height: number; rgb: number[] } {
  const img = PNG.sync.read(Buffer.from(png), { checkCRC: true });
  const rgb: number[] = [];
  for (let i = 0; i < img.data.length; i += 4) rgb.push(img.data[i], img.data[i + 1], img.data[i + 2]);
  return { width: img.width, height: img.height, rgb };
}

t.test("pngjs decodes the encoder's output to the encoded pixels", async (t) => {
  for (const [w, h] of [[1, 1], [3, 2], [97, 61], [300, 5]] as const) {
    const rgb = testImage(w, h);
    const decoded = pixelsOf(encodePngRgb(w, h, rgb));
    t.equal(decoded.width, w);
    t.equal(decoded.height, h);
    t.same(decoded.rgb, [...rgb], `${w}x${h} pixels`);
  }
});

t.test("the bytes are pinned: the same image on every machine and Node version", async (t) => {
  t.equal(sha256(encodePngRgb(97, 61, testImage(97, 61))), "aabc925fc9e3757d44ddf85645903a9e0ff1a428b90a9f36089de99f0eed1997");
  const plan = imageGenerationHandler.plan({ prompt: "a red fox", width: 96, height: 64, num_images: 2 }, { jobId: "job-1", seed: 1234 });
  if (plan.kind !== "complete") throw new Error(`expected completion, got ${JSON.stringify(plan)}`);
  const hashes = (plan.output as GeneratedImage[]).map((img) => sha256(Buffer.from(img.image_url.slice("data:image/png;base64,".length), "base64")));
  t.same(hashes, ["8cb17b33f3f309b5c416381a3389f271a65ec512fa558621cfa813b7d147976d", "202cc1bcb47ac9b8953e478fce29c5289265611573262aaf203e194e44946a97"]);
  for (const img of plan.output as GeneratedImage[]) {
    const decoded = pixelsOf(Buffer.from(img.image_url.slice("data:image/png;base64,".length), "base64"));
    t.same([decoded.width, decoded.height], [96, 64], "pngjs reads the generated image");
  }
});
