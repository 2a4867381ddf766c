/**
 * For the --state tests (not a test file itself): a journal write that plays a troubled disk,
 * steered by marker files in DIR that the test creates and removes (the write runs on the
 * journal's own thread, which sees the files as the test does):
 * - `disk-full`: every write fails with ENOSPC; the first lands half its bytes, as a real one
 *   can, leaving a torn line that the retry must write over;
 * - `disk-stalled`: a write waits (polling every 5 ms) until the file is gone, as a slow disk does;
 * - `writer-dies`: the journal's thread exits, as a crash of it would.
 */
import { existsSync, writevSync } from "node:fs";
import { join } from "node:path";
import type { WritevFn } from "./journal-writer.ts";

export const FULL_MARKER = "disk-full";
export const STALLED_MARKER = "disk-stalled";
export const DIES_MARKER = "writer-dies";

export function createWritev(dir: string): WritevFn {
  const marker = (name: string) => existsSync(join(dir, name));
  const nap = new Int32Array(new SharedArrayBuffer(4));
  let refused = 0;
  return (fd, buffers, position) => {
    if (marker(DIES_MARKER)) process.exit(70);
    while (marker(STALLED_MARKER)) Atomics.wait(nap, 0, 0, 5);
    if (!marker(FULL_MARKER)) return writevSync(fd, buffers as Buffer[], position);
    refused++;
    const first = buffers[0]!;
    if (refused === 1 && first.length > 1) return writevSync(fd, [first.subarray(0, Math.floor(first.length / 2))], position);
    throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
  };
}

/** The module's URL, for `stateWriteModule` (the compiled one when the caller runs compiled). */
export function troubledDiskModule(callerUrl: string): string {
  return new URL(callerUrl.endsWith(".ts") ? "./troubled-disk-writev.ts" : "./troubled-disk-writev.js", callerUrl).href;
}
