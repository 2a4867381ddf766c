/** The window counter of each rate-limit window mode (windows.ts). */
import type { RateWindowMode } from "./windows.ts";
import { AlignedCounts, AnchoredCounts, type WindowCounts } from "./window-counts.ts";
import { SlidingCounts } from "./sliding-counts.ts";
import { WeightedCounts } from "./weighted-counts.ts";

export function windowCounts(mode: RateWindowMode, slots: number): WindowCounts {
  switch (mode) {
    case "fixed-aligned":
      return new AlignedCounts(slots);
    case "fixed-anchored":
      return new AnchoredCounts(slots);
    case "sliding":
      return new SlidingCounts(slots, "oldest");
    case "sliding-whole":
      return new SlidingCounts(slots, "newest");
    case "sliding-weighted":
      return new WeightedCounts(slots);
  }
}
