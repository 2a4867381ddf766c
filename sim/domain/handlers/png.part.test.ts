import t from "tap";
import fc from "fast-check";
import { inflateSync, crc32 as zlibCrc32 } from "node:zlib";
import { crc32 } from "./crc32.ts";
import { decodePngHeader, encodePngRgb, readPngChunks, PngFormatError } from "./png.ts";
import { drawMosaic } from "./mosaic.ts";

/** Reference decoder for our own output (8-bit RGB, filters None/Sub/Up), through real zlib. */
function decodeRgb(png: Uint8Array): { width: number; height: number; rgb: Uint8Array } {
  const { width, height } = decodePngHeader(png);
  const idat = Buffer.concat(readPngChunks(png).filter((c) => c.type === "IDAT").map((c) => c.data));
  const raw = inflateSync(idat);
  const stride = width * 3;
  if (raw.length !== (stride + 1) * height) throw new Error(`inflated ${raw.length} bytes`);
  const rgb = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const v = raw[y * (stride + 1) + 1 + i];
      const left = i >= 3 ? rgb[y * stride + i - 3] : 0;
      const up = y > 0 ? rgb[(y - 1) * stride + i] : 0;
      const pred = f === 0 ? 0 : f === 1 ? left : f === 2 ? up : NaN;
      if (Number.isNaN(pred)) throw new Error(`unexpected filter ${f}`);
      rgb[y * stride + i] = (v + pred) & 0xff;
    }
  }
  return { width, height, rgb };
}

t.test("crc32 matches zlib's", async (t) => {
  fc.assert(fc.property(fc.uint8Array({ maxLength: 500 }), (b) => crc32(b) === zlibCrc32(b)));
  t.equal(crc32(new TextEncoder().encode("IEND")), 0xae426082);
});

t.test("encoded images decode, through real zlib, to exactly the pixels given", async (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 30 }), fc.nat(), fc.boolean(), (w, h, seed, noisy) => {
      // Noise exercises literals; mosaics exercise runs and Up rows.
      const rgb = noisy ? Uint8Array.from({ length: w * h * 3 }, (_, i) => (i * 2654435761 + seed) >>> 24) : drawMosaic(w, h, seed);
      const png = encodePngRgb(w, h, rgb);
      const back = decodeRgb(png);
      return back.width === w && back.height === h && Buffer.from(back.rgb).equals(Buffer.from(rgb));
    }),
    { numRuns: 200 },
  );
  // Runs longer than one deflate match (258) with every remainder.
  for (const w of [86, 87, 88, 172, 500]) {
    const rgb = new Uint8Array(w * 3 * 2).fill(7);
    t.same(decodeRgb(encodePngRgb(w, 2, rgb)).rgb, rgb, `flat ${w}x2`);
  }
});

t.test("decodePngHeader reads the header and checks the whole file", async (t) => {
  const png = encodePngRgb(300, 200, drawMosaic(300, 200, 1));
  t.same(decodePngHeader(png), { width: 300, height: 200, bitDepth: 8, colorType: 2, interlace: 0 });
  t.same(readPngChunks(png).map((c) => c.type), ["IHDR", "IDAT", "IEND"]);

  const flip = (at: number): Uint8Array => {
    const b = png.slice();
    b[at] ^= 0x01;
    return b;
  };
  t.throws(() => decodePngHeader(flip(0)), { name: "PngFormatError", message: /signature/ });
  t.throws(() => decodePngHeader(flip(20)), { message: /CRC mismatch in IHDR/ }, "header width bit flipped");
  t.throws(() => decodePngHeader(flip(50)), { message: /CRC mismatch in IDAT/ }, "image data bit flipped");
  t.throws(() => decodePngHeader(png.subarray(0, png.length - 12)), { message: /no IEND/ });
  t.throws(() => decodePngHeader(png.subarray(0, png.length - 3)), { message: /runs past the end|truncated/ });
  t.throws(() => decodePngHeader(Uint8Array.of(...png, 0)), { message: /after IEND/ });
  t.throws(() => decodePngHeader(new Uint8Array(3)), PngFormatError);
});

t.test("the encoder refuses sizes and buffers that do not match", async (t) => {
  t.throws(() => encodePngRgb(0, 1, new Uint8Array(0)), RangeError);
  t.throws(() => encodePngRgb(2, 2, new Uint8Array(11)), RangeError);
});

t.test("a large mosaic stays small and quick", async (t) => {
  const png = encodePngRgb(2048, 2048, drawMosaic(2048, 2048, 99));
  t.ok(png.length < 1_000_000, `2048x2048 is ${png.length} bytes`);
  t.equal(decodeRgb(png).rgb.length, 2048 * 2048 * 3);
});
