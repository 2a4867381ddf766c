/**
 * For the --state tests (not a test file itself): a journal write that plays a full disk while
 * `DIR/disk-full` exists (the test creates and removes it; the write runs on the journal's own
 * thread, which sees the file as the test does). The first refused write lands half its bytes,
 * as a real one can, leaving a torn line that the retry must write over.
 */
import { existsSync, writevSync } from "node:fs";
import { join } from "node:path";
import type { WritevFn } from "./journal-writer.ts";

export const FULL_MARKER = "disk-full";

export function createWritev(dir: string): WritevFn {
  const marker = join(dir, FULL_MARKER);
  let refused = 0;
  return (fd, buffers, position) => {
    if (!existsSync(marker)) return writevSync(fd, buffers as Buffer[], position);
    refused++;
    const first = buffers[0]!;
    if (refused === 1 && first.length > 1) return writevSync(fd, [first.subarray(0, Math.floor(first.length / 2))], position);
    throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
  };
}

/** The module's URL, for `stateWriteModule` (the compiled one when the caller runs compiled). */
export function fullDiskWritevModule(callerUrl: string): string {
  return new URL(callerUrl.endsWith(".ts") ? "./full-disk-writev.ts" : "./full-disk-writev.js", callerUrl).href;
}
