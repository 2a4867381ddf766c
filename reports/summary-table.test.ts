import t from "tap";
import { SETUP_NOT_REACHED } from "./conformance-report.ts";
import { sampleReport } from "./sample-report.ts";
import { renderSummaryTable } from "./summary-table.ts";

t.test("the summary: failures with their replay, skips by reason, totals, and the verdict last", async (t) => {
  const out = renderSummaryTable(sampleReport);
  t.matchSnapshot(out, "width 100");
  t.match(out, /^FAIL pods\.create\.unknown-property: 1 failure\n  expected: 400 problem\+json/m);
  t.match(out, /reproduce pods\.create\.unknown-property with: cpsim conform .*--seed 42/);
  t.match(out, /skipped, by reason:\n/);
  t.match(out, /1 passed, 1 failed, 2 skipped, 1 known, 1 target error/);
  t.match(out, /wall time 31\.8 s, 120 requests, 3\.8 requests\/s/);
  t.match(out.trimEnd().split("\n").pop(), /^FAILED \(1 failed; 5 of 8 rules judged\)$/, "the verdict is the last line");
  for (const r of sampleReport.rules.filter((x) => x.status === "pass")) t.notMatch(out, new RegExp(`^${r.id.replace(/\./g, "\\.")}\\b`, "m"), "passed rules are not listed again");
});

t.test("quiet: no skip reasons, only failures and totals", async (t) => {
  const out = renderSummaryTable(sampleReport, { quiet: true });
  t.notMatch(out, /skipped, by reason/);
  t.match(out, /^FAIL pods\.create\.unknown-property/m);
  t.match(out, /rules judged/);
});

t.test("a narrow terminal folds the skip reasons to its width, whole (#35: \"--profile s…\"), and never cuts a failure's diagnosis", async (t) => {
  const out = renderSummaryTable(sampleReport, { width: 50 });
  t.matchSnapshot(out, "width 50");
  for (const line of out.split("\n").filter((l) => l.startsWith("   "))) t.ok(line.length <= 50, `fits: ${line}`);
  // A reason longer than the terminal: folded, every word kept.
  const reason = "checked only under --profile strict: the emulator's choice where the spec is silent (docs/choices.md)";
  const skip = { ...sampleReport.rules.find((r) => r.status === "skip")!, id: "x.choice", reason };
  const long = renderSummaryTable({ ...sampleReport, rules: [...sampleReport.rules, skip] }, { width: 50 });
  t.ok(long.replace(/\n {8}/g, " ").includes(`1 × ${reason}`), "the whole reason, folded");
  for (const line of long.split("\n").filter((l) => l.startsWith("   "))) t.ok(line.length <= 50, `fits: ${line}`);
  t.notMatch(long, /…/, "nothing cut");
  const failed = sampleReport.rules.find((r) => r.status === "fail")!;
  const expected = failed.failures[0]!.evidence.expected.replace(/\s+/g, " ");
  t.ok(expected.length > 50, "the sample's diagnosis is longer than the terminal");
  t.ok(out.includes(`  expected: ${expected}\n`), "printed whole, without an ellipsis");
});

t.test("the counts line and the verdict count the failed rules alike, warnings among them", async (t) => {
  const warn = { ...sampleReport.rules.find((r) => r.status === "fail")!, id: "x.warned", severity: "warning" as const };
  const rules = [...sampleReport.rules, warn];
  const report = { ...sampleReport, rules, summary: { ...sampleReport.summary, failed: sampleReport.summary.failed + 1 } };
  const out = renderSummaryTable(report);
  const failed = report.summary.failed;
  t.match(out, new RegExp(`^\\d+ passed, ${failed} failed \\(1 of them a warning\\)`, "m"));
  t.match(out, new RegExp(`^FAILED \\(${failed} failed, 1 of them a warning; `, "m"));
  const onlyWarning = { ...report, rules: report.rules.filter((r) => r.status !== "fail" || r.severity === "warning"), summary: { ...report.summary, failed: 1, targetErrors: 0 }, targetErrors: [] };
  t.match(renderSummaryTable(onlyWarning), /^PASSED \(.*; 1 failed as a warning, which does not fail the run\)$/m);
});

t.test("skips whose set-up did not come about are counted apart from the others", async (t) => {
  const skip = sampleReport.rules.find((r) => r.status === "skip")!;
  const setup = { ...skip, id: "jobs.cancel.queued", reason: `${SETUP_NOT_REACHED}: could not get a job to stay IN_QUEUE (every submission was taken by a worker at once)` };
  const report = { ...sampleReport, rules: [...sampleReport.rules, setup], summary: { ...sampleReport.summary, skipped: sampleReport.summary.skipped + 1 } };
  t.match(renderSummaryTable(report), /1 failed, 3 skipped \(1 of them: set-up not reached\), 1 known/);
  t.notMatch(renderSummaryTable(sampleReport), /set-up not reached/, "none: nothing said");
});
