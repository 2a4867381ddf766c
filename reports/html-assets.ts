/**
 * The inline stylesheet and script of the HTML report. They live in the page itself because the
 * report must open from a CI artifact or a mail attachment with no network: no external fonts,
 * stylesheets or scripts, which the page's Content-Security-Policy also forbids.
 */

export const HTML_STYLE = `
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
`;

/**
 * Filters the rules table by status and copies a reproduction script. It guards every browser
 * API it touches: a report opened from disk in a locked-down viewer must not log errors.
 */
export const HTML_SCRIPT = `
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
`;
