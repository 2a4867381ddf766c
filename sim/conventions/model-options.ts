/**
 * The model options a point of the open-choice space sets (its `rateWindows` dimension): what the
 * emulator's model does differently under it, beside the catalog it serves (catalog.ts).
 */
import type { PlatformOptions } from "../domain/platform.ts";
import type { Conventions } from "./dimensions.ts";

export function modelUnder(c: Conventions): Pick<PlatformOptions, "rateWindows"> {
  return c.rateWindows === "fixed-aligned" ? {} : { rateWindows: c.rateWindows };
}
