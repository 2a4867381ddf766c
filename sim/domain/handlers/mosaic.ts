// The picture a simulated image model "generates": a mosaic of flat square cells coloured by two
// crossing triangle waves per channel (a blocky plasma). Flat cells keep the PNG small with our
// run-only deflate, and integer arithmetic keeps the pixels identical on every platform.

import { intBetween, mulberry32 } from "./prng.ts";

/** A triangle wave of period 512 with values 0..255. */
function tri(v: number): number {
  const p = v & 511;
  return p < 256 ? p : 511 - p;
}

/** A picture of flat square cells: the cell's side in pixels and the colour of each cell. */
export interface CellPattern {
  readonly cell: number;
  /** Channel c (0 red, 1 green, 2 blue) of the cell in column cx and row cy, 0..255. */
  color(cx: number, cy: number, c: number): number;
}

/** The mosaic's cells, fully determined by the 32-bit seed. */
export function mosaicPattern(seed: number): CellPattern {
  const rng = mulberry32(seed);
  const cell = intBetween(rng, 0, 1) === 0 ? 8 : 16;
  // Per channel: two waves, each with a slope along x and y (per cell) and a phase.
  const waves = Array.from({ length: 3 }, () => ({
    ax: intBetween(rng, 2, 40),
    ay: intBetween(rng, 2, 40),
    bx: intBetween(rng, 2, 40),
    by: intBetween(rng, 2, 40),
    p: intBetween(rng, 0, 511),
    q: intBetween(rng, 0, 511),
  }));
  return {
    cell,
    color(cx, cy, c) {
      const w = waves[c];
      return (tri(cx * w.ax + cy * w.ay + w.p) + tri(cx * w.bx - cy * w.by + w.q)) >> 1;
    },
  };
}

/** width·height·3 bytes of RGB of a cell pattern. */
export function drawCells(width: number, height: number, pattern: CellPattern): Uint8Array {
  const { cell } = pattern;
  const stride = width * 3;
  const rgb = new Uint8Array(stride * height);
  for (let y0 = 0; y0 < height; y0 += cell) {
    const cy = y0 / cell;
    const row = y0 * stride;
    for (let x = 0; x < width; x++) {
      const cx = Math.floor(x / cell);
      for (let c = 0; c < 3; c++) rgb[row + x * 3 + c] = pattern.color(cx, cy, c);
    }
    // The other rows of the band repeat its first row.
    for (let y = y0 + 1; y < Math.min(y0 + cell, height); y++) rgb.copyWithin(y * stride, row, row + stride);
  }
  return rgb;
}

/** width·height·3 bytes of RGB, fully determined by the 32-bit seed. */
export function drawMosaic(width: number, height: number, seed: number): Uint8Array {
  return drawCells(width, height, mosaicPattern(seed));
}
