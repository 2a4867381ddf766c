import t from "tap";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { defaultReportDir, writeConformanceReports } from "./write-reports.ts";
import { sampleReport } from "./sample-report.ts";

t.test("writes report.json, junit.xml and report.html, and an extra JUnit copy", async (t) => {
  const dir = t.testdir();
  const written = await writeConformanceReports(sampleReport, { dir: join(dir, "out"), junit: join(dir, "ci", "results.xml") });
  t.same(JSON.parse(await readFile(written.json, "utf8")), sampleReport);
  t.match(await readFile(written.junit, "utf8"), /^<\?xml/);
  t.match(await readFile(written.html, "utf8"), /^<!doctype html>/);
  t.equal(await readFile(written.extraJunit!, "utf8"), await readFile(written.junit, "utf8"));
  t.equal(written.json, join(dir, "out", "report.json"));
});

t.test("the default folder is reports/<command>/ under the working directory", async (t) => {
  t.equal(defaultReportDir("conformance", "/tmp/x"), "/tmp/x/reports/conformance");
});
