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

t.test("failures come first, then the rules grouped by area with unbroken ids, then coverage", async (t) => {
  const html = renderHtmlReport(sampleReport);
  const at = (re: RegExp) => html.search(re);
  t.ok(at(/<section id="summary">/) < at(/<section id="failures">/), "summary, then failures");
  t.ok(at(/<section id="failures">/) < at(/<section id="rules-section">/), "failures, then rules");
  t.ok(at(/<section id="rules-section">/) < at(/<section id="coverage">/), "rules, then coverage");
  t.match(html, /<h3 id="area-pods">pods <small>/, "an area heading");
  t.match(html, /<table class="rules" data-area="pods">/);
  t.match(html, /td\.id \{[^}]*white-space: nowrap/, "a rule id never wraps mid-word");
  t.notMatch(html, /td\.id \{[^}]*break-all/);
  t.match(html, /class="verdict s-fail">FAILED \(1 failed; 5 of 8 rules judged\)/, "the badge says how much was judged");
});

t.test("a clean run says so, with how many rules it judged; a thin one fails", async (t) => {
  const clean = { ...sampleReport, rules: [sampleReport.rules[0]], targetErrors: [], summary: { passed: 1, failed: 0, skipped: 0, setupNotReached: 0, known: 0, targetErrors: 0 } };
  const html = renderHtmlReport(clean);
  t.match(html, /class="verdict s-pass">PASSED \(5 of 8 rules judged\)/);
  const thin = { ...clean, coverage: { ...clean.coverage, rules: { ...clean.coverage.rules, checked: 3, minCoverage: 60 } } };
  t.match(renderHtmlReport(thin), /class="verdict s-fail">FAILED \(only 3 of 8 rules judged, 37% &lt; --min-coverage 60%\)/);
  t.match(html, /<h2>Failures<\/h2><p>None\.<\/p>/);
  t.notMatch(html, /id="target-errors"/);
});
