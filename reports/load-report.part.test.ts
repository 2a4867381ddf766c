/** The load report's writers: terminal table, report.json, and report.html with its SVG charts, also in headless Chromium. */
import t from "tap";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { chromiumSkip as skip, dumpDom } from "./headless-chromium.ts";
import { renderLoadHtml } from "./load-html.ts";
import { formatMicros } from "./load-report.ts";
import { renderLoadTable } from "./load-table.ts";
import { sampleLoadReport } from "./sample-load-report.ts";
import { writeLoadReports } from "./write-load-reports.ts";

t.test("the terminal table: a row per scenario, then what failed and why", async (t) => {
  const text = renderLoadTable(sampleLoadReport, 140);
  t.match(text, /run-small\s+closed\s+5010\s+1002\s+450 µs\s+700 µs\s+1\.90 ms/);
  t.match(text, /rate-limit\s+open 40\/s/);
  t.match(text, /rate-limit: threshold http_req_duration p\(99\)<1 failed \(actual 1\.9\)/);
  t.match(text, /rate-limit: 60 answers were 429; the minute window ran out 1\.5 s in/);
  t.match(text, /the generator sent 2 request\(s\) late/);
  t.match(text, /regression: run-small p99_us 1900 vs baseline 1000 \(90\.0% worse, limit 10%\)/);
  t.match(text, /load: FAILED; reproduce with: npx cpsim load --seed 42/);
  // Statuses by class (2xx 4xx 5xx 429), then errors: every unexpected status and every request without an answer.
  t.match(text, /2xx\s+4xx\s+5xx\s+429\s+errors/);
  t.match(text, /rate-limit\s+open 40\/s.*\s50\s+4\s+6\s+60\s+10\s/);
  t.match(text, /create-pod\s.*skipped/);
  t.match(text, /create-pod: skipped: the target's catalog offers no GPU type/);
  // Every figure beside its baseline, passing or not.
  t.match(text, /run-small rps 1002 \(baseline 1000, \+0\.2%\) ok/);
  t.match(text, /run-small p50_us 450 µs \(baseline 450 µs, \+0\.0%\) ok/);
  t.match(text, /run-small p99_us 1\.90 ms \(baseline 1\.00 ms, \+90\.0%\) REGRESSED/);
  const narrow = renderLoadTable(sampleLoadReport, 80);
  t.ok(narrow.split("\n")[0].length <= 80, "fits a narrow terminal");
  t.equal(formatMicros(999), "999 µs");
  t.equal(formatMicros(1500), "1.50 ms");
  t.equal(formatMicros(2_500_000), "2.50 s");
});

t.test("report.json and report.html are written; the charts are SVG; target text stays text", async (t) => {
  const dir = t.testdir();
  const files = await writeLoadReports(sampleLoadReport, dir);
  t.same(JSON.parse(readFileSync(files.json, "utf8")), sampleLoadReport);
  const html = readFileSync(files.html, "utf8");
  t.equal(html.match(/<svg /g)?.length, 3, "three charts");
  t.match(html, /<figure id="latency-over-time"><svg/);
  t.match(html, /<figure id="answers-over-time"><svg/);
  t.match(html, /<summary>per second \(5\)<\/summary>/, "the per-second series as a table");
  t.match(html, /<table id="comparisons">.*p99_us.*REGRESSED/s);
  t.match(html, /skipped: the target&#39;s catalog|skipped: the target&#x27;s catalog|skipped: the target's catalog/);
  t.match(html, /Latency distribution/);
  t.notMatch(html, /<script>alert/);
  t.match(html, /A &lt;script&gt;alert/);
  t.notMatch(html, /https?:\/\/(?!127\.0\.0\.1|www\.w3\.org)/, "no address to fetch anything from");
});

t.test("report.html renders in headless Chromium without console messages", { skip }, async (t) => {
  const dir = t.testdir();
  const file = join(dir, "report.html");
  await writeFile(file, await renderLoadHtml(sampleLoadReport));
  const { dom, console } = await dumpDom(file);
  t.same(console, [], "no console messages");
  t.match(dom, /<body data-ready="true">/, "the inline script ran to the end");
  t.match(dom, /<tr data-scenario="run-small"><td>run-small<\/td><td>closed<\/td>/, "summary row");
  t.match(dom, /<figure id="latency-distribution"><svg[^>]*class="marks"/, "chart drawn");
  t.match(dom, /<g class="mark-line role-mark[^"]*"[^>]*><path[^>]*d="M\d/, "a drawn line in the SVG");
  t.notMatch(dom, /<script>alert/, "target content stayed text");
});
