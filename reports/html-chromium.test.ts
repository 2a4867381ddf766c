/**
 * Opens the HTML report in headless Chromium and checks that it renders the summary and a
 * failure's details, runs its script, and logs nothing to the console. Chromium prints each
 * console message to stderr as a `CONSOLE` line with --enable-logging=stderr, at every level,
 * so any such line counts as an error: the report has no reason to log anything.
 */
import t from "tap";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { renderHtmlReport } from "./html-report.ts";
import { sampleReport } from "./sample-report.ts";

const CHROMIUM = "/usr/bin/chromium";
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed (CI installs Debian's chromium; locally: apt-get install -y chromium)`;

async function dumpDom(file: string): Promise<{ dom: string; console: string[] }> {
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

t.test("the report renders in headless Chromium without console errors", { skip }, async (t) => {
  const dir = t.testdir();
  const file = join(dir, "report.html");
  await writeFile(file, renderHtmlReport(sampleReport));
  const { dom, console } = await dumpDom(file);
  t.same(console, [], "no console messages");
  t.match(dom, /<body data-ready="true">/, "the inline script ran to the end");
  t.match(dom, /<span class="n">1<\/span>failed/, "summary");
  t.match(dom, /5 of 8 rules checked/, "coverage");
  t.match(dom, /<article class="failure" id="failure-pods\.create\.unknown-property-0"/, "failure details");
  t.match(dom, /Properties not listed in the body schema are rejected/, "spec sentence");
  t.match(dom, /curl -sS -X POST/, "curl script");
  t.notMatch(dom, /<script>alert/, "target content stayed text");
});

t.test("the console check catches a page that logs errors", { skip }, async (t) => {
  const dir = t.testdir();
  const file = join(dir, "bad.html");
  await writeFile(file, "<!doctype html><body><script>missingFunction();</script></body>");
  const { console } = await dumpDom(file);
  t.match(console.join("\n"), /Uncaught ReferenceError/);
});
