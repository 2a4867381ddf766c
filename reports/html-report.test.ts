import t from "tap";
import { renderHtmlReport } from "./html-report.ts";
import { sampleReport } from "./sample-report.ts";

t.test("the HTML report is one self-contained page", async (t) => {
  const html = renderHtmlReport(sampleReport);
  t.matchSnapshot(html, "report.html");
  t.equal(html.match(/<script\b/g)?.length, 1, "only the report's own inline script");
  t.notMatch(html, /<script[^>]*\bsrc=/i);
  t.notMatch(html, /<link[^>]*rel="stylesheet"/i);
  t.notMatch(html, /(src|href)="(https?:)?\/\//i, "nothing is loaded from the network");
  t.notMatch(html, /@import|url\(/i, "no external fonts or images in the style");
  t.match(html, /Content-Security-Policy" content="default-src 'none'/);
});

t.test("it shows the summary, coverage and each failure's details, escaped", async (t) => {
  const html = renderHtmlReport(sampleReport);
  t.match(html, /<span class="n">1<\/span>passed/);
  t.match(html, /5 of 8 rules checked \(63%\)/);
  t.match(html, /pod transitions: 2 of 3/);
  t.match(html, /<article class="failure" id="failure-pods.create.unknown-property-0"/);
  t.match(html, /Properties not listed in the body schema are rejected/);
  t.match(html, /400 problem\+json naming the unknown property `bogus`/);
  t.match(html, /HTTP 201/);
  t.match(html, /&lt;1000010 × &quot;a&quot;&gt;/, "a generated body is described, not inlined");
  t.match(html, /--seed 42 --only pods.create.unknown-property/);
  t.match(html, /Bearer \$\{CPSIM_API_KEY\}/, "the key appears only as its variable");
  t.notMatch(html, /<script>alert/, "target content never becomes markup");
  t.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  t.match(html, /CPSIM_ERR_TARGET_TIMEOUT/);
});

t.test("a clean run says so", async (t) => {
  const clean = { ...sampleReport, rules: [sampleReport.rules[0]], targetErrors: [], summary: { passed: 1, failed: 0, skipped: 0, known: 0, targetErrors: 0 } };
  const html = renderHtmlReport(clean);
  t.match(html, /class="verdict s-pass">PASSED/);
  t.match(html, /<h2>Failures<\/h2><p>None\.<\/p>/);
  t.notMatch(html, /id="target-errors"/);
});
