/**
 * About how many bytes a JSON value takes once serialised, counted without serialising it, and
 * only up to a cap: the memory budget asks "is this output over N bytes?" for every job, and the
 * answer must cost little whatever the output is. Strings count their UTF-16 length plus quotes
 * (an ASCII string exactly; escapes and multi-byte characters are not counted, so the figure is a
 * lower bound there), numbers a fixed width. A value shared in several places counts each time,
 * as its serialisation would. A lazy part (lazy-output.ts) counts its known length, unmade.
 */
import { lazyPartOf } from "../handlers/lazy-output.ts";

/** Estimated serialised size of `value`, stopping as soon as it passes `cap` (then some figure > cap). */
export function jsonSizeAtMost(value: unknown, cap: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") size += v.length + 2;
    else if (typeof v === "number") size += 8;
    else if (typeof v === "boolean" || v === null || v === undefined) size += 4;
    else if (Array.isArray(v)) {
      size += 2 + v.length;
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (typeof v === "object") {
      size += 2;
      const lazy = lazyPartOf(v);
      for (const key in v) {
        size += key.length + 4;
        if (lazy !== undefined && key === lazy.key) size += lazy.length + 2;
        else stack.push((v as Record<string, unknown>)[key]);
      }
    }
    if (size > cap) return size;
  }
  return size;
}
