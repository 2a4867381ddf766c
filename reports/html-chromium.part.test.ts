/**
 * Opens the HTML report in headless Chromium and checks that it renders the summary and a
 * failure's details, runs its script, and logs nothing to the console. Chromium prints each
 * console message to stderr as a `CONSOLE` line with --enable-logging=stderr, at every level,
 * so any such line counts as an error: the report has no reason to log anything.
 */
import t from "tap";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { chromiumSkip as skip, dumpDom } from "./headless-chromium.ts";
import { renderHtmlReport } from "./html-report.ts";
import { sampleReport } from "./sample-report.ts";

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
