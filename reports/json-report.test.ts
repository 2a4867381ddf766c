import t from "tap";
import { renderJsonReport } from "./json-report.ts";
import { sampleReport } from "./sample-report.ts";
import { SETUP_NOT_REACHED, summarize } from "./conformance-report.ts";

t.test("report.json holds the report as it is and reads back equal", async (t) => {
  const text = renderJsonReport(sampleReport);
  t.matchSnapshot(text, "report.json");
  t.same(JSON.parse(text), sampleReport);
  const parsed = JSON.parse(text);
  t.same(Object.keys(parsed.summary), ["passed", "failed", "skipped", "setupNotReached", "known", "targetErrors"]);
  t.same(parsed.rules.map((r: { status: string }) => r.status), ["pass", "fail", "skip", "known", "skip"]);
});

t.test("report.json counts the skips whose set-up did not come about apart from the others (summary.setupNotReached)", async (t) => {
  const skip = sampleReport.rules.find((r) => r.status === "skip")!;
  const setup = { ...skip, id: "jobs.cancel.queued", reason: `${SETUP_NOT_REACHED}: could not get a job to stay IN_QUEUE (every submission was taken by a worker at once)` };
  const rules = [...sampleReport.rules, setup];
  const parsed = JSON.parse(renderJsonReport({ ...sampleReport, rules, summary: summarize(rules, 1) }));
  t.equal(parsed.summary.skipped, sampleReport.summary.skipped + 1, "still among the skipped");
  t.equal(parsed.summary.setupNotReached, 1);
  t.equal(JSON.parse(renderJsonReport(sampleReport)).summary.setupNotReached, 0);
});
