// The length of encodePngRgb(width, height, drawCells(width, height, pattern)) without drawing or
// encoding: the memory budget needs an image's size when a job starts, while its bytes are made
// only when the result is read (see lazy-output.ts). It walks one row per band of cells and one
// step per cell, so a 2048×2048 picture costs a few thousand steps instead of 12 MB of pixels.

import type { CellPattern } from "./mosaic.ts";
import { RunSizer } from "./zlib-rle.ts";

/** PNG signature, IHDR chunk, IDAT's length/type/CRC and the IEND chunk around the zlib stream. */
const PNG_OVERHEAD = 8 + (12 + 13) + 12 + 12;

/** The colours of band cy's cells, three bytes a cell. */
function bandColors(cells: number, cy: number, pattern: CellPattern): Uint8Array {
  const out = new Uint8Array(cells * 3);
  for (let cx = 0; cx < cells; cx++) for (let c = 0; c < 3; c++) out[cx * 3 + c] = pattern.color(cx, cy, c);
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The filtered rows of encodePngRgb, as runs: a repeated row is Up (all zeros), others Sub. */
export function pngLengthOfCells(width: number, height: number, pattern: CellPattern): number {
  const { cell } = pattern;
  const stride = width * 3;
  const cells = Math.ceil(width / cell);
  const sizer = new RunSizer();
  let previous: Uint8Array | undefined;
  for (let y0 = 0; y0 < height; y0 += cell) {
    const colors = bandColors(cells, y0 / cell, pattern);
    if (previous !== undefined && sameBytes(colors, previous)) {
      sizer.add(2, 1);
      sizer.add(0, stride);
    } else {
      sizer.add(1, 1);
      for (let cx = 0; cx < cells; cx++) {
        // The cell's first pixel minus the pixel to its left (nothing left of x = 0), then zeros.
        for (let c = 0; c < 3; c++) sizer.add((colors[cx * 3 + c] - (cx > 0 ? colors[cx * 3 - 3 + c] : 0)) & 0xff, 1);
        sizer.add(0, 3 * (Math.min(cell, width - cx * cell) - 1));
      }
    }
    // The other rows of the band repeat its first row.
    for (let y = y0 + 1; y < Math.min(y0 + cell, height); y++) {
      sizer.add(2, 1);
      sizer.add(0, stride);
    }
    previous = colors;
  }
  return PNG_OVERHEAD + sizer.bytes();
}
