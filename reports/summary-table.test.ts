import t from "tap";
import { sampleReport } from "./sample-report.ts";
import { renderSummaryTable } from "./summary-table.ts";

t.test("summary table at the default width", async (t) => {
  const out = renderSummaryTable(sampleReport);
  t.matchSnapshot(out, "width 100");
  t.match(out, /1 passed, 1 failed, 2 skipped, 1 known, 1 target error/);
  t.match(out, /wall time 31\.8 s, 120 requests, 3\.8 requests\/s/);
  t.match(out, /reproduce pods\.create\.unknown-property with: cpsim conform .*--seed 42/);
});

t.test("summary table in a narrow terminal keeps rows within the width", async (t) => {
  const out = renderSummaryTable(sampleReport, { width: 50 });
  t.matchSnapshot(out, "width 50");
  const table = out.split("\n").slice(0, sampleReport.rules.length + 2);
  for (const line of table) t.ok(line.length <= 50, `fits: ${line}`);
});
