/**
 * Headless Chromium for the report tests: loads a file and returns the DOM after scripts ran and
 * the console lines (Chromium prints each console message to stderr as a CONSOLE line with
 * --enable-logging=stderr, at every level). Test support only.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export const CHROMIUM = "/usr/bin/chromium";

/** false when Chromium is installed, else why the test is skipped. */
export const chromiumSkip: false | string = existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed (CI installs Debian's chromium; locally: apt-get install -y chromium)`;

export async function dumpDom(file: string): Promise<{ dom: string; console: string[] }> {
  const profile = await mkdtemp(join(tmpdir(), "cpsim-chromium-"));
  const args = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    `--user-data-dir=${profile}`,
    "--enable-logging=stderr",
    "--v=0",
    "--virtual-time-budget=2000",
    "--dump-dom",
    pathToFileURL(file).href,
  ];
  try {
    return await new Promise((resolve, reject) => {
      execFile(CHROMIUM, args, { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
        if (err) reject(new Error(`chromium failed: ${err.message}\n${stderr}`));
        else resolve({ dom: stdout, console: stderr.split("\n").filter((l) => /:CONSOLE[:(]/.test(l)) });
      });
    });
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}
