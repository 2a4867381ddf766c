/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`reports/html-report.test.ts > TAP > the HTML report is one self-contained page > report.html 1`] = `
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>cpsim conformance: http://127.0.0.1:8080</title>
<style>
:root { --pass: #1a7f37; --fail: #cf222e; --skip: #6e7781; --known: #9a6700; --err: #8250df; --bg: #f6f8fa; --line: #d0d7de; }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 0 0 6px; } h4 { font-size: 13px; margin: 12px 0 4px; text-transform: uppercase; color: #59636e; }
code, pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 8px; overflow: auto; max-height: 420px; white-space: pre-wrap; word-break: break-all; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 8px 0; } dl.meta dt { color: #59636e; } dl.meta dd { margin: 0; word-break: break-all; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; } .card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 16px; min-width: 110px; }
.card .n { font-size: 26px; font-weight: 600; display: block; } .verdict { font-weight: 600; padding: 2px 8px; border-radius: 4px; color: #fff; }
.s-pass { color: var(--pass); } .s-fail { color: var(--fail); } .s-skip { color: var(--skip); } .s-known { color: var(--known); } .s-error { color: var(--err); }
.verdict.s-pass { background: var(--pass); color: #fff; } .verdict.s-fail { background: var(--fail); color: #fff; } .verdict.s-error { background: var(--err); color: #fff; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--bg); } td.num { text-align: right; white-space: nowrap; } td.id { font-family: ui-monospace, Menlo, Consolas, monospace; white-space: nowrap; }
.bar { height: 10px; background: var(--bg); border: 1px solid var(--line); border-radius: 5px; overflow: hidden; max-width: 420px; } .bar > span { display: block; height: 100%; background: var(--pass); }
.filters button { margin-right: 6px; border: 1px solid var(--line); background: #fff; border-radius: 6px; padding: 3px 10px; cursor: pointer; } .filters button[aria-pressed="true"] { background: #1f2328; color: #fff; }
.failure { border: 1px solid var(--fail); border-left-width: 4px; border-radius: 6px; padding: 12px; margin: 12px 0; }
blockquote { margin: 6px 0; padding: 4px 12px; border-left: 3px solid var(--line); color: #3d444d; }
.copy { float: right; font-size: 12px; } .hidden { display: none; }
table.rules { margin-bottom: 12px; } h3 small { font-weight: normal; color: #59636e; }
</style>
</head>
<body>
<header><h1>cpsim conformance report <span class="verdict s-fail">FAILED (1 failed; 5 of 8 rules judged)</span></h1><dl class="meta"><dt>target</dt><dd>http://127.0.0.1:8080</dd><dt>serverless URL</dt><dd>http://127.0.0.1:8080</dd><dt>seed</dt><dd>42</dd><dt>profile</dt><dd>lenient</dd><dt>started</dt><dd>2025-01-01T00:00:00.000Z</dd><dt>wall time</dt><dd>31.8 s</dd><dt>requests</dt><dd>120 (3.8 requests/s)</dd><dt>tool</dt><dd>cpsim 0.1.0</dd><dt>baseline</dt><dd>previous/report.json</dd></dl></header>
<section id="summary"><h2>Summary</h2><div class="cards"><div class="card s-pass" data-count="passed"><span class="n">1</span>passed</div><div class="card s-fail" data-count="failed"><span class="n">1</span>failed</div><div class="card s-skip" data-count="skipped"><span class="n">2</span>skipped</div><div class="card s-known" data-count="known"><span class="n">1</span>known</div><div class="card s-error" data-count="target errors"><span class="n">1</span>target errors</div></div></section>
<section id="failures"><h2>Failures</h2><article class="failure" id="failure-pods.create.unknown-property-0" data-rule="pods.create.unknown-property">
<h3><code>pods.create.unknown-property</code>: Unknown properties are rejected <small class="s-fail">error</small></h3>
<blockquote class="spec">Properties not listed in the body schema are rejected; \`gpu\` and \`cpu\` objects also reject unlisted properties.</blockquote>
<h4>Expected</h4><p class="expected">400 problem+json naming the unknown property \`bogus\`</p>
<h4>Got</h4><pre class="got">HTTP 201
content-type: application/json

{&quot;id&quot;:&quot;p1&quot;,&quot;name&quot;:&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;,&quot;note&quot;:&quot;]]&gt; &amp; \\u0007 bell&quot;}</pre>
<h4>Request</h4><pre class="request">POST http://127.0.0.1:8080/v2/pods
content-type: application/json
authorization: Bearer \${CPSIM_API_KEY}

{&quot;name&quot;:&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;,&quot;image&quot;:&quot;i&quot;,&quot;gpu&quot;:{&quot;id&quot;:&quot;A&quot;},&quot;bogus&quot;:1}</pre><h4>Requests before it (1)</h4><pre class="request">POST http://127.0.0.1:8080/v2/pods
content-type: application/json

{&quot;pad&quot;:&quot;&lt;1000010 × &quot;a&quot;&gt;&quot;}</pre>
<h4>Reproduction</h4><dl class="meta"><dt>seed</dt><dd>42</dd><dt>path</dt><dd><code>3:1:0</code></dd><dt>command</dt><dd><code>cpsim conform --target http://127.0.0.1:8080 --seed 42 --only pods.create.unknown-property</code></dd></dl>
<button type="button" class="copy" data-target="failure-pods.create.unknown-property-0-curl">copy</button><pre class="curl" id="failure-pods.create.unknown-property-0-curl">#!/usr/bin/env bash
# cpsim conform: reproduction of pods.create.unknown-property
: &quot;\${CPSIM_API_KEY:?set CPSIM_API_KEY to the key given as --api-key}&quot;
curl -sS -X POST &#39;http://127.0.0.1:8080/v2/pods&#39; -H &#39;content-type: application/json&#39; -H &quot;authorization: Bearer \${CPSIM_API_KEY}&quot; --data-binary &#39;{&quot;name&quot;:&quot;x&quot;,&quot;image&quot;:&quot;i&quot;,&quot;gpu&quot;:{&quot;id&quot;:&quot;A&quot;},&quot;bogus&quot;:1}&#39; -w &#39;\\n--&gt; HTTP %{http_code}\\n&#39;
</pre>
</article></section>
<section id="rules-section"><h2>Rules by area</h2><p class="filters"><button type="button" data-filter="all" aria-pressed="true">all</button><button type="button" data-filter="fail" aria-pressed="false">fail</button><button type="button" data-filter="known" aria-pressed="false">known</button><button type="button" data-filter="skip" aria-pressed="false">skip</button><button type="button" data-filter="pass" aria-pressed="false">pass</button></p><div id="rules"><h3 id="area-pods">pods <small>(<span class="s-pass">1 pass</span>, <span class="s-fail">1 fail</span>)</small></h3><table class="rules" data-area="pods"><thead><tr><th>rule</th><th>result</th><th>time</th><th>title</th><th>note</th></tr></thead><tbody><tr data-status="pass"><td class="id">pods.create.required-fields</td><td class="s-pass">pass</td><td class="num">12 ms</td><td>201 carries every required Pod field</td><td></td></tr><tr data-status="fail"><td class="id">pods.create.unknown-property</td><td class="s-fail">fail</td><td class="num">1.5 s</td><td>Unknown properties are rejected</td><td><a href="#failure-pods.create.unknown-property-0">1 failure(s)</a></td></tr></tbody></table>
<h3 id="area-auth">auth <small>(<span class="s-skip">1 skip</span>)</small></h3><table class="rules" data-area="auth"><thead><tr><th>rule</th><th>result</th><th>time</th><th>title</th><th>note</th></tr></thead><tbody><tr data-status="skip"><td class="id">auth.restricted-key.forbidden</td><td class="s-skip">skip</td><td class="num">0 ms</td><td>A valid key without access gives 403</td><td>needs --restricted-api-key</td></tr></tbody></table>
<h3 id="area-jobs">jobs <small>(<span class="s-known">1 known</span>, <span class="s-skip">1 skip</span>)</small></h3><table class="rules" data-area="jobs"><thead><tr><th>rule</th><th>result</th><th>time</th><th>title</th><th>note</th></tr></thead><tbody><tr data-status="known"><td class="id">jobs.retry.only-failed</td><td class="s-known">known</td><td class="num">250 ms</td><td>Retry only from FAILED or TIMED_OUT</td><td>failed in the baseline too</td></tr><tr data-status="skip"><td class="id">jobs.runsync.waits</td><td class="s-skip">skip</td><td class="num">30.0 s</td><td>runsync waits for completion</td><td>target error: CPSIM_ERR_TARGET_TIMEOUT</td></tr></tbody></table></div></section>
<section id="coverage"><h2>Coverage</h2><p>5 of 8 rules checked (63%)</p><div class="bar"><span style="width:63%"></span></div><details><summary>3 rules not checked</summary><ul><li><code>pods.patch.mount-kind</code></li><li><code>graphql.pod-stop.exited</code></li><li><code>limits.run.payload</code></li></ul></details><h3>pod transitions: 2 of 3</h3><table><thead><tr><th>from</th><th>to</th><th></th></tr></thead><tbody><tr><td>(none)</td><td>PROVISIONING</td><td class="s-pass">exercised</td></tr><tr><td>PROVISIONING</td><td>STARTING</td><td class="s-pass">exercised</td></tr><tr><td>STARTING</td><td>RUNNING</td><td class="s-skip">not exercised</td></tr></tbody></table><h3>job transitions: 1 of 2</h3><table><thead><tr><th>from</th><th>to</th><th></th></tr></thead><tbody><tr><td>IN_QUEUE</td><td>IN_PROGRESS</td><td class="s-pass">exercised</td></tr><tr><td>FAILED</td><td>IN_QUEUE</td><td class="s-skip">not exercised</td></tr></tbody></table></section>
<section id="target-errors"><h2>Target errors</h2><p>Timeouts and connection errors: about the target, not verdicts on rules.</p><table><thead><tr><th>rule</th><th>code</th><th>message</th><th>request</th></tr></thead><tbody><tr><td class="id">jobs.runsync.waits</td><td>CPSIM_ERR_TARGET_TIMEOUT</td><td>no response within 30000 ms</td><td>POST http://127.0.0.1:8080/v2/conformance/runsync</td></tr></tbody></table></section>
<script>
(function () {
  var rows = document.querySelectorAll("#rules tbody tr");
  var buttons = document.querySelectorAll(".filters button");
  function show(status) {
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i];
      row.classList.toggle("hidden", status !== "all" && row.getAttribute("data-status") !== status);
    }
    for (var j = 0; j < buttons.length; j++) {
      buttons[j].setAttribute("aria-pressed", String(buttons[j].getAttribute("data-filter") === status));
    }
  }
  for (var k = 0; k < buttons.length; k++) {
    buttons[k].addEventListener("click", function (event) { show(event.currentTarget.getAttribute("data-filter")); });
  }
  var copies = document.querySelectorAll("button.copy");
  for (var c = 0; c < copies.length; c++) {
    copies[c].addEventListener("click", function (event) {
      var target = document.getElementById(event.currentTarget.getAttribute("data-target"));
      if (!target || !navigator.clipboard) return;
      navigator.clipboard.writeText(target.textContent || "").catch(function () {});
    });
  }
  document.body.setAttribute("data-ready", "true");
})();
</script>
</body>
</html>

`
