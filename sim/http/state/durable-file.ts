/**
 * A file of `--state DIR` replaced whole, so that a crash leaves the old one or the new one, never
 * part of either: written under `<path>.tmp`, fsync'ed, renamed over `path`, and the directory
 * fsync'ed. A failure removes the temporary file and throws (the old file is left as it was).
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";

export function writeFileDurably(path: string, parts: readonly Buffer[]): void {
  const temporary = `${path}.tmp`;
  try {
    const fd = openSync(temporary, "w");
    try {
      let position = 0;
      for (const part of parts) {
        let done = 0;
        while (done < part.length) done += writeSync(fd, part, done, part.length - done, position + done);
        position += part.length;
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw err;
  }
  syncDirectory(dirname(path));
}

function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some file systems cannot sync a directory; the rename is then as durable as they make it.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
