// Kept rather than pngjs: pngjs deflates with node:zlib, whose bytes vary with the zlib build and CPU (see zlib-rle.ts), and the simulated images must be the same bytes on every machine; png-determinism.part.test.ts pins them and decodes them with pngjs.
// PNG writing and header reading (ISO/IEC 15948). The simulated image-generation endpoint returns
// real PNGs, and the conformance suite checks images it receives from any target with
// decodePngHeader, so the reader verifies every chunk's CRC rather than trusting the header.

import { crc32 } from "./crc32.ts";
import { zlibCompressRuns } from "./zlib-rle.ts";

export const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** Largest side we read or write; a guard against absurd allocations, not a PNG limit. */
export const PNG_MAX_SIDE = 16_384;

export class PngFormatError extends Error {
  override readonly name = "PngFormatError";
  readonly code = "CPSIM_ERR_PNG_FORMAT";
}

export interface PngHeader {
  readonly width: number;
  readonly height: number;
  readonly bitDepth: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA. */
  readonly colorType: number;
  readonly interlace: number;
}

export interface PngChunk {
  readonly type: string;
  readonly data: Uint8Array;
}

function u32(b: Uint8Array, at: number): number {
  return ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
}

function putU32(b: Uint8Array, at: number, v: number): void {
  b[at] = v >>> 24;
  b[at + 1] = (v >>> 16) & 0xff;
  b[at + 2] = (v >>> 8) & 0xff;
  b[at + 3] = v & 0xff;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  putU32(out, 0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  // The CRC covers the type and the data, not the length.
  putU32(out, 8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

/**
 * Encodes an 8-bit RGB image (rgb holds width·height·3 bytes, rows top to bottom). Each row is
 * filtered with Up when it repeats the row above (making it all zeros) and Sub otherwise, which
 * suits flat-coloured images; the output is the same bytes on every machine.
 */
export function encodePngRgb(width: number, height: number, rgb: Uint8Array): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > PNG_MAX_SIDE || height > PNG_MAX_SIDE) {
    throw new RangeError(`PNG size must be 1..${PNG_MAX_SIDE} on each side, got ${width}x${height}`);
  }
  const stride = width * 3;
  if (rgb.length !== stride * height) {
    throw new RangeError(`expected ${stride * height} RGB bytes for ${width}x${height}, got ${rgb.length}`);
  }
  const filtered = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const src = y * stride;
    const dst = y * (stride + 1) + 1;
    let sameAsAbove = y > 0;
    for (let i = 0; sameAsAbove && i < stride; i++) sameAsAbove = rgb[src + i] === rgb[src - stride + i];
    if (sameAsAbove) {
      filtered[dst - 1] = 2; // Up: every byte minus the byte above, all zero here
      continue;
    }
    filtered[dst - 1] = 1; // Sub: every byte minus the same channel of the pixel to its left
    for (let i = 0; i < stride; i++) filtered[dst + i] = (rgb[src + i] - (i >= 3 ? rgb[src + i - 3] : 0)) & 0xff;
  }
  const ihdr = new Uint8Array(13);
  putU32(ihdr, 0, width);
  putU32(ihdr, 4, height);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  // compression 0, filter method 0, no interlace: already zero
  const parts = [PNG_SIGNATURE, chunk("IHDR", ihdr), chunk("IDAT", zlibCompressRuns(filtered)), chunk("IEND", new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Reads every chunk, checking the signature, each chunk's bounds and CRC, and that the file ends
 * with IEND. Throws PngFormatError on the first problem, naming it.
 */
export function readPngChunks(buf: Uint8Array): PngChunk[] {
  if (buf.length < PNG_SIGNATURE.length || PNG_SIGNATURE.some((b, i) => buf[i] !== b)) {
    throw new PngFormatError("not a PNG: the 8-byte signature is missing");
  }
  const chunks: PngChunk[] = [];
  let at = PNG_SIGNATURE.length;
  while (at < buf.length) {
    if (at + 12 > buf.length) throw new PngFormatError(`truncated chunk header at byte ${at}`);
    const length = u32(buf, at);
    const end = at + 8 + length;
    if (length > 0x7fffffff || end + 4 > buf.length) throw new PngFormatError(`chunk at byte ${at} runs past the end of the file`);
    const type = String.fromCharCode(buf[at + 4], buf[at + 5], buf[at + 6], buf[at + 7]);
    if (!/^[A-Za-z]{4}$/.test(type)) throw new PngFormatError(`invalid chunk type at byte ${at}`);
    const stored = u32(buf, end);
    const actual = crc32(buf, at + 4, end);
    if (stored !== actual) {
      throw new PngFormatError(`CRC mismatch in ${type} chunk at byte ${at}: stored ${stored.toString(16)}, computed ${actual.toString(16)}`);
    }
    chunks.push({ type, data: buf.subarray(at + 8, end) });
    at = end + 4;
    if (type === "IEND") break;
  }
  if (chunks.length === 0 || chunks[chunks.length - 1].type !== "IEND") throw new PngFormatError("no IEND chunk: the file is truncated");
  if (at !== buf.length) throw new PngFormatError(`${buf.length - at} bytes after IEND`);
  return chunks;
}

const VALID_DEPTHS: Readonly<Record<number, readonly number[]>> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

/** The header of a PNG, after checking the whole file's chunk structure and CRCs. */
export function decodePngHeader(buf: Uint8Array): PngHeader {
  const chunks = readPngChunks(buf);
  const ihdr = chunks[0];
  if (ihdr.type !== "IHDR" || ihdr.data.length !== 13) throw new PngFormatError("the first chunk must be a 13-byte IHDR");
  if (!chunks.some((c) => c.type === "IDAT")) throw new PngFormatError("no IDAT chunk");
  const d = ihdr.data;
  const header: PngHeader = { width: u32(d, 0), height: u32(d, 4), bitDepth: d[8], colorType: d[9], interlace: d[12] };
  if (header.width === 0 || header.height === 0) throw new PngFormatError(`zero image size ${header.width}x${header.height}`);
  if (!(VALID_DEPTHS[header.colorType] ?? []).includes(header.bitDepth)) {
    throw new PngFormatError(`invalid colour type ${header.colorType} with bit depth ${header.bitDepth}`);
  }
  if (d[10] !== 0 || d[11] !== 0 || header.interlace > 1) throw new PngFormatError("unknown compression, filter or interlace method");
  return header;
}
