import t from "tap";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { RuleResult } from "../reports/conformance-report.ts";
import { sampleReport } from "../reports/sample-report.ts";
import { writeConformanceReports } from "../reports/write-reports.ts";
import { applyBaseline, baselineFrom, loadBaseline, newFailures } from "./baseline.ts";

const rule = (id: string, status: RuleResult["status"]): RuleResult => ({ id, title: id, spec: "s", severity: "error", status, durationMs: 1, failures: [] });

t.test("a report.json written by a run is a baseline: its failing and known rules", async (t) => {
  const dir = t.testdir();
  const written = await writeConformanceReports(sampleReport, { dir });
  const baseline = await loadBaseline(written.json);
  t.same([...baseline.failing].sort(), ["jobs.retry.only-failed", "pods.create.unknown-property"]);
});

t.test("failures the baseline had are known; new ones still fail", async (t) => {
  const baseline = baselineFrom("old.json", { rules: [{ id: "a", status: "fail" }, { id: "b", status: "known" }, { id: "c", status: "pass" }] });
  const rules = applyBaseline([rule("a", "fail"), rule("b", "fail"), rule("c", "fail"), rule("d", "fail"), rule("e", "pass")], baseline);
  t.same(rules.map((r) => r.status), ["known", "known", "fail", "fail", "pass"]);
  t.match(rules[0].reason, /failed in the baseline \(old\.json\) too/);
  t.same(newFailures(rules), ["c", "d"]);
  t.same(newFailures(applyBaseline([rule("a", "fail")], undefined)), ["a"], "without a baseline every failure is new");
});

t.test("a baseline that cannot be read or is not a report is a configuration error saying which", async (t) => {
  const dir = t.testdir();
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    return writeFile(path, text).then(() => path);
  };
  await t.rejects(loadBaseline(join(dir, "missing.json")), { code: "CPSIM_ERR_BASELINE", exitCode: 2, message: /missing\.json cannot be read/ });
  await t.rejects(loadBaseline(await file("bad.json", "{not json")), { message: /bad\.json is not a cpsim report\.json: it is not JSON/ });
  await t.rejects(loadBaseline(await file("arr.json", "[]")), { message: /not a JSON object/ });
  await t.rejects(loadBaseline(await file("norules.json", "{}")), { message: /no "rules" array/ });
  await t.rejects(loadBaseline(await file("noid.json", '{"rules":[{"status":"fail"}]}')), { message: /rules\[0\] has no string "id"/ });
  await t.rejects(loadBaseline(await file("status.json", '{"rules":[{"id":"a","status":"broken"}]}')), { message: /rules\[0\] \("a"\) has status "broken"/ });
});
