import { renameSync, rmSync, writeFileSync } from "node:fs";

/**
 * A server's `--ready-file`: written whole under a temporary name, then renamed, so whoever sees
 * FILE reads it complete (serve and proxy announce themselves this way).
 */
export function writeReadyFile(file: string, content: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  try {
    renameSync(temporary, file);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw err;
  }
}
