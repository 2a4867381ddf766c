/**
 * Test support: opens an HTML file in headless Chromium and returns the DOM after its scripts ran
 * and every console line Chromium logged (with --enable-logging=stderr each console message is a
 * `CONSOLE` line on stderr, at every level). Tests skip when /usr/bin/chromium is absent.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export const CHROMIUM = "/usr/bin/chromium";
/** A tap `skip` value: false when Chromium is there, else why the test is skipped. */
export const chromiumSkip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed (CI installs Debian's chromium; locally: apt-get install -y chromium)`;

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
      execFile(CHROMIUM, args, { timeout: 60_000, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) => {
        if (err) reject(new Error(`chromium failed: ${err.message}\n${stderr}`));
        else resolve({ dom: stdout, console: stderr.split("\n").filter((l) => /:CONSOLE[:(]/.test(l)) });
      });
    });
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}
