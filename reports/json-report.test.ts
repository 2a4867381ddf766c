import t from "tap";
import { renderJsonReport } from "./json-report.ts";
import { sampleReport } from "./sample-report.ts";

t.test("report.json holds the report as it is and reads back equal", async (t) => {
  const text = renderJsonReport(sampleReport);
  t.matchSnapshot(text, "report.json");
  t.same(JSON.parse(text), sampleReport);
  const parsed = JSON.parse(text);
  t.same(Object.keys(parsed.summary), ["passed", "failed", "skipped", "known", "targetErrors"]);
  t.same(parsed.rules.map((r: { status: string }) => r.status), ["pass", "fail", "skip", "known", "skip"]);
});
