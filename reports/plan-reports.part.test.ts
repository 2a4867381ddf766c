import t from "tap";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { chromiumSkip, dumpDom } from "./headless-chromium.ts";
import { renderPlanCsv } from "./plan-csv.ts";
import { renderPlanHtml } from "./plan-html.ts";
import { renderPlanSummary } from "./plan-summary.ts";
import { samplePlanReport } from "./sample-plan-report.ts";

t.test("terminal summary: intervals, the limit, the backlog, checks and the find answer", async (t) => {
  const text = renderPlanSummary(samplePlanReport);
  t.match(text, /5 seeds \(1\.\.5\), 1 virtual hours \(first 10 min left out\)/);
  t.match(text, /point 1\/2: workersMax=4  \(misses the SLO\)/);
  t.match(text, /unfinished at the horizon 70 \[63, 77\] queued/);
  t.match(text, /held by    90% of the waiting happened at the worker cap \(workersMax 4\)/);
  t.match(text, /WARN chat-<api> \(point 1\): Little's law/);
  t.equal(text.match(/Little's law/g)?.length, 1, "a failed check is printed once (its warning note is for JSON readers)");
  t.match(text, /find: cheapest workersMax/);
});

t.test("CSV: one row per point and endpoint, mean/lo/hi columns, quoted where needed", async (t) => {
  const rows = renderPlanCsv(samplePlanReport).trimEnd().split("\n");
  t.equal(rows.length, 3);
  t.match(rows[0], /^point,workersMax,endpoint,limit,submitted,submitted_lo,submitted_hi,/);
  t.match(rows[1], /^0,4,chat-<api>,workerCap,10000,9800,10200,/);
});

t.test("report.html: charts as inline SVG, text escaped", async (t) => {
  const html = await renderPlanHtml(samplePlanReport);
  t.ok((html.match(/<svg/g) ?? []).length >= 6, "time series, delay and sweep charts");
  t.notMatch(html, /<script>alert/, "scenario text stays text");
  t.match(html, /sample &lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  t.notMatch(html, /https?:\/\/(?!www\.w3\.org|vega\.github\.io)/, "no outside resources");
});

t.test("report.html renders in headless Chromium without console errors", { skip: chromiumSkip }, async (t) => {
  const file = join(t.testdir(), "report.html");
  await writeFile(file, await renderPlanHtml(samplePlanReport));
  const { dom, console } = await dumpDom(file);
  t.same(console, [], "no console messages");
  t.match(dom, /<body data-ready="true">/, "the page loaded to the end");
  t.match(dom, /<p class="find" id="find">cheapest workersMax/);
  t.match(dom, /<h3 id="endpoint-chat-&lt;api&gt;-0">chat-&lt;api&gt;<\/h3>/);
  t.match(dom, /<svg[^>]*class="marks"/, "vega SVG in the DOM");
  t.match(dom, /queue and workers over time/);
});
