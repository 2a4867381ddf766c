// `cpsim mutation` end to end: the clean run, then one defect of every area of the rule catalog in
// worker threads, each caught precisely; mutation.json and mutation.html written; the figure line last.
import t from "tap";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DEFECT_AREAS, defectByName } from "../../sim/defects/index.ts";
import type { MutationReport } from "../../reports/index.ts";
import { run } from "./cli.ts";
import { mutation } from "./mutation.ts";

// Fourteen suite runs on a shared machine: allow for a slow one.
t.setTimeout(600_000);

/** One defect per area, each one the full matrix catches precisely. */
const ONE_PER_AREA = [
  "create-accepts-empty-name",
  "cost-when-exited",
  "update-empty-network-array",
  "terminate-answers-200",
  "problem-title-generic",
  "submit-bad-webhook",
  "purge-count-off-by-one",
  "status-ttl-ignored",
  "runsync-limit-40mb",
  "read-only-runs-jobs",
  "no-retry-after",
  "stock-status-out",
  "gpus-bare-array",
];

t.test("one defect per area: the clean run passes, every defect is caught precisely", async (t) => {
  t.same(new Set(ONE_PER_AREA.map((n) => defectByName(n)?.area)), new Set(DEFECT_AREAS), "every area once");
  const dir = t.testdir();
  const out: string[] = [];
  const result = await mutation({ defects: ONE_PER_AREA, workers: 2, seed: 1, reportDir: dir }, { stdout: (s) => void out.push(s), stderr: (s) => void out.push(s) });
  const report = result.report!;
  t.same(report.clean.failing, [], "the clean emulator fails no rule");
  for (const d of report.defects) {
    t.equal(d.verdict, "caught-precisely", `${d.name}: ${d.rule} among ${d.failing.join(", ") || "(none)"}`);
    t.equal(d.scope, "rule", `${d.name}: its own rule's check, alone, caught it and ended its run`);
  }
  t.equal(report.complete, false);
  t.equal(result.exitCode, 0);
  const json = JSON.parse(await readFile(join(dir, "mutation.json"), "utf8")) as MutationReport;
  t.equal(json.summary.precise, ONE_PER_AREA.length);
  t.match(await readFile(join(dir, "mutation.html"), "utf8"), /<tr data-status="caught-precisely">/);
  t.ok(json.unexercisedRules.some((r) => r.id === "auth.expired-key"), "rules no selected defect breaks are listed");
  const lines = out.join("").trimEnd().split("\n");
  t.match(lines.at(-1), /^mutation_defects=13 caught=13 precise=13 escaped=0 clean_failures=0 wall_s=\d+\.\d$/, "the figure line is last");
});

t.test("--complete: the whole suite against the defect, every rule that catches it listed", async (t) => {
  const result = await mutation({ defects: ["problem-title-generic"], workers: 2, seed: 1, complete: true, reportDir: t.testdir() });
  const report = result.report!;
  t.equal(report.complete, true);
  const [d] = report.defects;
  t.equal(d.scope, "suite");
  t.equal(d.verdict, "caught-precisely");
  t.ok(d.failing.includes("errors.title-matches-status"), `the broken rule among ${d.failing.join(", ")}`);
  t.same(report.clean.failing, [], "the clean emulator fails no rule");
});

t.test("usage errors exit 2 through the CLI", async (t) => {
  const err: string[] = [];
  const io = { stdout: () => {}, stderr: (s: string) => void err.push(s) };
  await t.rejects(run(["--defect", "no-such-*"], io), /matches no defect/);
  await t.rejects(run(["--workers", "0"], io), /--workers/);
});
