// Outputs whose heavy part is made when it is read, not when the job runs. An image job's picture
// is a pure function of (size, seed): its plan keeps that recipe and the exact length of the data
// URI, so the model's timing and memory budget are those of the finished image, while the bytes
// (up to ~1 s of CPU for 4 × 2048²) are produced later, where the emulator can make them off its
// event loop (sim/http/lazy-render.ts). Reading the property anywhere else makes the string in
// place, once, so every consumer (JSON.stringify, tests, simulate) sees the same plain data.

import { base64Encode } from "./base64.ts";
import { drawCells, mosaicPattern } from "./mosaic.ts";
import { encodePngRgb } from "./png.ts";
import { pngLengthOfCells } from "./png-size.ts";

/** The key under which an output object keeps its lazy part (not enumerable, not serialised). */
export const LAZY_OUTPUT: unique symbol = Symbol.for("cpsim.lazy-output");

/** A PNG data URI of the mosaic of `seed` (see mosaic.ts): plain data, so it can cross threads. */
export interface MosaicRecipe {
  readonly kind: "mosaic-png-data-uri";
  readonly width: number;
  readonly height: number;
  readonly seed: number;
}

export interface LazyString {
  /** The enumerable property whose value is made on demand. */
  readonly key: string;
  /** The string's length, known without making it. */
  readonly length: number;
  readonly recipe: MosaicRecipe;
  /** The string once made. */
  value: string | undefined;
}

const DATA_URI_PREFIX = "data:image/png;base64,";

/** Makes the string a recipe stands for (pure: the same recipe, the same string). */
export function renderRecipe(recipe: MosaicRecipe): string {
  const { width, height, seed } = recipe;
  return DATA_URI_PREFIX + base64Encode(encodePngRgb(width, height, drawCells(width, height, mosaicPattern(seed))));
}

/** The length of renderRecipe(recipe), without rendering. */
export function recipeLength(recipe: MosaicRecipe): number {
  const png = pngLengthOfCells(recipe.width, recipe.height, mosaicPattern(recipe.seed));
  return DATA_URI_PREFIX.length + 4 * Math.ceil(png / 3);
}

/**
 * An object with the enumerable properties of `before`, then `key` (made from `recipe` on its
 * first read, then kept), then those of `after`, in that order.
 */
export function lazyObject(before: Record<string, unknown>, key: string, recipe: MosaicRecipe, after: Record<string, unknown>): Record<string, unknown> {
  return lazyObjectInto({}, before, key, recipe, after);
}

/** lazyObject, made in `out` (an empty object): a restored model's objects are made before they are filled. */
export function lazyObjectInto(out: Record<string, unknown>, before: Record<string, unknown>, key: string, recipe: MosaicRecipe, after: Record<string, unknown>): Record<string, unknown> {
  const lazy: LazyString = { key, length: recipeLength(recipe), recipe, value: undefined };
  Object.assign(out, before);
  Object.defineProperty(out, key, {
    enumerable: true,
    get: () => (lazy.value ??= renderRecipe(recipe)),
  });
  Object.assign(out, after);
  Object.defineProperty(out, LAZY_OUTPUT, { value: lazy, enumerable: false });
  return out;
}

/** The lazy part of `value`, when it is an object made by lazyObject. */
export function lazyPartOf(value: unknown): LazyString | undefined {
  return value !== null && typeof value === "object" ? ((value as { [LAZY_OUTPUT]?: LazyString })[LAZY_OUTPUT] ?? undefined) : undefined;
}
