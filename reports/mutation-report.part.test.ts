// The mutation report's writers: score, terminal table, figure line, and the HTML page in headless Chromium.
import t from "tap";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  type DefectResult,
  type MutationReport,
  familyFigureLine,
  judgedEscapes,
  legalEscapes,
  mutationFigureLine,
  mutationPassed,
  renderMutationHtml,
  renderMutationTable,
  summarizeMutation,
  verdictOf,
  writeMutationReports,
} from "./index.ts";

const defect = (name: string, rule: string, failing: string[]): DefectResult => ({
  name, area: "pods.create", rule, does: `does <b>${name}</b>`, spec: "A pod name has at least 1 character", failing, scope: "suite", verdict: verdictOf(rule, failing), wallTimeMs: 1200,
});

function sample(defects: DefectResult[], cleanFailing: string[] = []): MutationReport {
  return {
    tool: { name: "cpsim", version: "0.0.0" }, seed: 7, profile: "strict", workers: 2, complete: true, startedAt: "2026-01-01T00:00:00.000Z", wallTimeMs: 61_500,
    clean: { failing: cleanFailing, wallTimeMs: 9000 }, defects,
    unexercisedRules: [{ id: "auth.expired-key", title: "An expired key answers 401" }],
    summary: summarizeMutation(defects, cleanFailing.length),
  };
}

const precise = defect("create-accepts-empty-name", "pods.create.name-min-length", ["pods.create.name-min-length", "errors.validation-list"]);
const caught = defect("create-answers-200", "pods.create.created-201", ["pods.create.status-provisioning"]);
const escaped = defect("sneaky<script>alert(1)</script>", "pods.create.default-cloud", []);

t.test("verdicts, score and the figure line", async (t) => {
  t.equal(precise.verdict, "caught-precisely");
  t.equal(caught.verdict, "caught");
  t.equal(escaped.verdict, "escaped");
  const report = sample([precise, caught, escaped]);
  t.same(report.summary, { defects: 3, caught: 2, precise: 1, escaped: 1, errors: 0, cleanFailures: 0 });
  t.equal(mutationFigureLine(report), "mutation_defects=3 caught=2 precise=1 escaped=1 clean_failures=0 wall_s=61.5");
  t.notOk(mutationPassed(report), "an escape fails the run");
  t.ok(mutationPassed(sample([precise, caught])), "every defect caught passes");
  t.notOk(mutationPassed(sample([precise], ["jobs.delay-time"])), "a failing clean run fails the run");
});

t.test("the terminal table names each defect, its verdict, and what caught it", async (t) => {
  const text = renderMutationTable(sample([precise, caught, escaped]), 140);
  t.match(text, /create-accepts-empty-name\s+PRECISE\s+pods\.create\.name-min-length\s+pods\.create\.name-min-length, errors\.validation-list/);
  t.match(text, /create-answers-200\s+CAUGHT/);
  t.match(text, /ESCAPED\s+pods\.create\.default-cloud\s+\(none; pods\.create\.default-cloud not run\)/);
  t.match(text, /score: 2\/3 caught \(66\.7%\), 1\/3 caught precisely \(33\.3%\), 1 escaped/);
  t.match(text, /escaped: sneaky/);
  t.match(text, /rules no defect breaks \(1\): auth\.expired-key/);
});

t.test("a run of a few defects names a dozen unbroken rules and counts the rest", async (t) => {
  const report = { ...sample([precise]), unexercisedRules: Array.from({ length: 20 }, (_, i) => ({ id: `rule.n${i}`, title: "t" })) };
  const line = renderMutationTable(report, 140).split("\n").find((l) => l.startsWith("rules no defect breaks"));
  t.equal(line, `rules no defect breaks (20): ${Array.from({ length: 12 }, (_, i) => `rule.n${i}`).join(", ")} and 8 more (all in mutation.json)`);
});

t.test("mutation.json and mutation.html are written, the page escapes what it shows", async (t) => {
  const dir = t.testdir();
  const written = await writeMutationReports(sample([precise, caught, escaped]), dir);
  const json = JSON.parse(await readFile(written.json, "utf8")) as MutationReport;
  t.equal(json.summary.escaped, 1);
  const html = await readFile(written.html, "utf8");
  t.notMatch(html, /<script>alert/);
  t.match(html, /sneaky&lt;script&gt;/);
  t.equal(html, renderMutationHtml(sample([precise, caught, escaped])));
});

const CHROMIUM = "/usr/bin/chromium";
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed (apt-get install -y chromium)`;

t.test("the page renders in headless Chromium, runs its script, logs nothing", { skip }, async (t) => {
  const dir = t.testdir();
  const { html } = await writeMutationReports(sample([precise, caught, escaped]), dir);
  const profile = await mkdtemp(join(tmpdir(), "cpsim-chromium-"));
  t.teardown(() => rm(profile, { recursive: true, force: true }));
  const args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", `--user-data-dir=${profile}`,
    "--enable-logging=stderr", "--v=0", "--virtual-time-budget=2000", "--dump-dom", pathToFileURL(html).href];
  const { dom, stderr } = await new Promise<{ dom: string; stderr: string }>((resolve, reject) =>
    execFile(CHROMIUM, args, { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => (err ? reject(err) : resolve({ dom: stdout, stderr }))));
  t.same(stderr.split("\n").filter((l) => /:CONSOLE[:(]/.test(l)), [], "no console messages");
  t.match(dom, /<body data-ready="true">/, "the inline script ran to the end");
  t.match(dom, /<span class="n">2<\/span>caught/, "score cards");
  t.match(dom, /<tr data-status="escaped">/, "rows carry their verdict for the filters");
  t.match(dom, /<strong>pods\.create\.name-min-length<\/strong>/, "the broken rule is marked among the catching ones");
  t.match(dom, /A pod name has at least 1 character/, "spec sentence");
  t.notMatch(dom, /<script>alert/, "defect text stayed text");
});

t.test("a seed's line counts apart the escapes whose rule was judged and passed (observable there, not seen)", async (t) => {
  const skipped = { ...defect("gpus-bare-array", "catalog.gpus.shape", []), ruleStatus: "skip" };
  const passed = { ...defect("runsync-wait-unchecked", "jobs.runsync.wait-range", []), ruleStatus: "pass" };
  const caught = defect("create-accepts-empty-name", "pods.create.name-min-length", ["pods.create.name-min-length"]);
  const defects = [skipped, passed, caught];
  t.same(judgedEscapes(defects).map((d) => d.name), ["runsync-wait-unchecked"]);
  const line = familyFigureLine({ family: 4, conventions: "lists bare", clean: { failing: [], wallTimeMs: 1 }, defects, summary: summarizeMutation(defects, 0) });
  t.equal(line, "mutation_conventions=4 defects=3 caught=1 precise=1 escaped=2 clean_failures=0 judged_escaped=1 legal_escaped=0");
});

t.test("an escape a correct service may show under lenient is counted apart, with its reason, and is no miss", async (t) => {
  const miss = { ...defect("not-found-plain-json", "errors.same-body", []), ruleStatus: "pass" };
  const legal = { ...defect("runsync-wait-unchecked", "jobs.runsync.wait-range", []), ruleStatus: "pass", legal: "legal under lenient: the sentence gives the range, not the answer" };
  const defects = [miss, legal];
  t.same(judgedEscapes(defects).map((d) => d.name), ["not-found-plain-json"], "judged_escaped counts only the real miss");
  t.same(legalEscapes(defects).map((d) => d.name), ["runsync-wait-unchecked"]);
  const line = familyFigureLine({ family: 2, conventions: "lists bare", clean: { failing: [], wallTimeMs: 1 }, defects, summary: summarizeMutation(defects, 0) });
  t.equal(line, "mutation_conventions=2 defects=2 caught=0 precise=0 escaped=2 clean_failures=0 judged_escaped=1 legal_escaped=1");
  t.match(renderMutationTable({ ...sample([legal]), profile: "lenient" }, 200), /\(none; jobs\.runsync\.wait-range pass; legal under lenient\)/);
  t.equal(mutationPassed({ ...sample([legal]), profile: "lenient" }), true, "a legal escape alone does not fail the run");
  t.equal(mutationPassed({ ...sample([legal, miss]), profile: "lenient" }), false, "a real miss does");
});
