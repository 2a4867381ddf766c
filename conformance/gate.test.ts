/**
 * Verdicts a CI gate can trust (issue 22, points 1 and 2): against targets that would fool a
 * suite whose verdicts are not earned (one that answers 404 to everything, one that serves a
 * job endpoint's health and nothing else, one that refuses a key), no rule passes vacuously,
 * a refused full-access key or a missing job endpoint is a configuration error (exit 2), and a
 * run that judged nothing exits 2.
 */
import t from "tap";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ConformanceReport } from "../reports/conformance-report.ts";
import { run } from "./cli.ts";
import { healthOnly, keyedHealth, notFoundEverywhere, oneWorkerEndpoint } from "./test-support/gate-targets.ts";

const KEY = "sk-gate-0123456789";
const RESTRICTED = "sk-gate-readonly-0123456789";

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s) }, out: () => out.join(""), err: () => err.join("") };
}

async function conformRun(args: readonly string[]) {
  const c = capture();
  const code = await run([...args, "--seed", "22"], c.io, { controlApi: false, terminalWidth: 100, tty: false });
  return { code, stdout: c.out(), stderr: c.err() };
}

const readReport = async (dir: string) => JSON.parse(await readFile(join(dir, "report.json"), "utf8")) as ConformanceReport;

t.test("a target that answers 404 to everything: the missing job endpoint stops the run (exit 2) before any rule", async (t) => {
  const target = await notFoundEverywhere();
  t.teardown(() => target.close());
  for (const only of [[], ["--only", "jobs.transition-legal"], ["--only", "jobs.submit.input-object,jobs.runsync.wait-range,jobs.retry.only-failed"]]) {
    const dir = t.testdir();
    const r = await conformRun(["--target", target.url, "--api-key", KEY, ...only, "--report-dir", dir]);
    t.equal(r.code, 2, `exit 2 (${only.join(" ") || "every rule"})`);
    t.match(r.stderr, /the job endpoint "conformance" is missing: GET \/v2\/conformance\/health answered 404, as does the made-up path/);
    t.notMatch(r.stdout, /PASSED/);
  }
});

t.test("--only/--skip that leave nothing exit 2 before any request", async (t) => {
  const target = await notFoundEverywhere();
  t.teardown(() => target.close());
  for (const selection of [["--skip", "*"], ["--only", "jobs.*", "--skip", "jobs.*"], ["--only", "jobs.transition-legal", "--skip", "jobs.*", "--min-coverage", "0"]]) {
    const r = await conformRun(["--target", target.url, "--api-key", KEY, ...selection, "--report-dir", t.testdir()]);
    t.equal(r.code, 2, selection.join(" "));
    t.match(r.stderr, /leaves no rule to run, so nothing would be judged/);
  }
  t.same(target.seen, [], "nothing was sent");
});

t.test("a target serving only the endpoint's health: refusals from routes it does not serve, and transitions never seen, pass nothing", async (t) => {
  const target = await healthOnly();
  t.teardown(() => target.close());
  const dir = t.testdir();
  const rules = ["jobs.transition-legal", "jobs.submit.input-object", "jobs.runsync.wait-range", "jobs.retry.only-failed"];
  const r = await conformRun(["--target", target.url, "--api-key", KEY, "--only", rules.join(","), "--min-coverage", "0", "--report-dir", dir]);
  const report = await readReport(dir);
  t.same(
    report.rules.filter((x) => x.status === "pass").map((x) => x.id),
    [],
    "no rule passes",
  );
  const reason = (id: string) => report.rules.find((x) => x.id === id)?.reason ?? "";
  t.match(reason("jobs.transition-legal"), /nothing was judged: no transition was observed/);
  t.match(reason("jobs.submit.input-object"), /from a route the target does not serve|no such route/);
  t.match(reason("jobs.runsync.wait-range"), /POST \/v2\/conformance\/runsync answered 404, as does the made-up path/);
  t.match(reason("jobs.retry.only-failed"), /nothing was judged/);
  t.equal(r.code, 2, "nothing was judged: exit 2, even with --min-coverage 0");
  t.match(r.stdout, /exit 2: nothing was judged: all 4 selected rules were skipped/);
});

t.test("a full-access key the target refuses: exit 2 naming the flag, the request and the answer, and no rule run", async (t) => {
  const target = await keyedHealth(["some-other-key-000000"]);
  t.teardown(() => target.close());
  const dir = t.testdir();
  const r = await conformRun(["--target", target.url, "--api-key", KEY, "--report-dir", dir]);
  t.equal(r.code, 2);
  t.match(r.stderr, /the target refused the full-access key given by --api-key/);
  t.match(r.stderr, new RegExp(`GET ${target.url}/v2/conformance/health answered 401 .*invalid API key`));
  t.notMatch(r.stderr + r.stdout, KEY, "the key itself is never printed");
  // Before the key's read only the reachability check: the timing measurement (conformance/target-timing.ts: reads of
  // the root, a 1 MB upload) comes after it, so a run whose key is refused uploads nothing.
  t.same(
    target.seen,
    ["GET /", "GET /v2/conformance/health", "GET /v2/conformance/health"],
    "the reachability check, the key's read (Bearer, then the key alone), and nothing after it",
  );
});

t.test("a read-only key the target refuses: that key's rules are skipped, saying so; the others run", async (t) => {
  const target = await keyedHealth([KEY]);
  t.teardown(() => target.close());
  const dir = t.testdir();
  const r = await conformRun(["--target", target.url, "--api-key", KEY, "--restricted-api-key", RESTRICTED, "--only", "jobs.health.shape,auth.read-only-forbidden", "--min-coverage", "0", "--report-dir", dir]);
  const report = await readReport(dir);
  const ro = report.rules.find((x) => x.id === "auth.read-only-forbidden");
  t.equal(ro?.status, "skip");
  t.match(ro?.reason, /--restricted-api-key was refused by the target \(GET .*\/v2\/conformance\/health answered 401/);
  t.equal(report.rules.find((x) => x.id === "jobs.health.shape")?.status, "pass", "the full-access key's rule is judged");
  t.equal(r.code, 0);
  t.match(r.stdout, /--restricted-api-key refused: GET/);
});

t.test("--discover reports no fact found from a 404 that a made-up path gets too", async (t) => {
  const target = await notFoundEverywhere();
  t.teardown(() => target.close());
  const c = capture();
  const code = await run(["--target", target.url, "--api-key", KEY, "--discover"], c.io, {});
  t.equal(code, 0);
  t.notMatch(c.out() + c.err(), /podDeletePath[^\n]*probe: DELETE/, "no delete path found by a probe");
  t.match(c.out() + c.err(), /podDeletePath \(default/);
});

t.test("GITHUB_STEP_SUMMARY: the verdict, each failure with its reproduce line, and what was skipped and why, appended as Markdown", async (t) => {
  const target = await healthOnly();
  t.teardown(() => target.close());
  const dir = t.testdir({ "summary.md": "# earlier step\n" });
  const file = join(dir, "summary.md");
  const c = capture();
  const code = await run(
    ["--target", target.url, "--api-key", KEY, "--only", "jobs.health.shape,jobs.run.in-queue,auth.read-only-forbidden", "--min-coverage", "0", "--report-dir", dir, "--seed", "22"],
    c.io,
    { controlApi: false, tty: false, env: { GITHUB_STEP_SUMMARY: file } },
  );
  t.equal(code, 1);
  const md = await readFile(file, "utf8");
  t.match(md, /^# earlier step\n## ❌ cpsim conform: FAILED \(1 failed; 2 of 3 rules judged\)/, "appended after what the file held, verdict first");
  t.match(md, /#### `jobs\.run\.in-queue` \(error\)/);
  t.match(md, /- expected: a 2xx answer \{id, status: "IN_QUEUE"\} to run/);
  t.match(md, new RegExp(`\`\`\`sh\\nnpx cpsim conform --target ${target.url} --api-key '<your --api-key>' --seed 22 --only jobs\\.run\\.in-queue\\n\`\`\``));
  t.match(md, /\| 1: `auth\.read-only-forbidden` \| needs --restricted-api-key \|/);
  t.notMatch(md, KEY);
  t.notMatch(c.out(), /…/, "no diagnosis cut in the terminal either");
});

t.test("a configuration error is summarised too, and without the variable nothing is written", async (t) => {
  const target = await keyedHealth([]);
  t.teardown(() => target.close());
  const dir = t.testdir();
  const file = join(dir, "summary.md");
  const code = await run(["--target", target.url, "--api-key", KEY, "--report-dir", dir], capture().io, { controlApi: false, env: { GITHUB_STEP_SUMMARY: file } });
  t.equal(code, 2);
  t.match(await readFile(file, "utf8"), /^## ❌ cpsim conform: configuration error \(exit 2\)\n\nthe target refused the full-access key given by --api-key/);
});

t.test("--fail-fast: no rule starts after the first failure; the others are skipped, saying so", async (t) => {
  const target = await healthOnly();
  t.teardown(() => target.close());
  const dir = t.testdir();
  const rules = ["jobs.run.in-queue", "jobs.runsync.complete-result", "jobs.status.values", "jobs.worker-id"];
  const r = await conformRun(["--target", target.url, "--api-key", KEY, "--only", rules.join(","), "--fail-fast", "--report-dir", dir]);
  t.equal(r.code, 1);
  const report = await readReport(dir);
  const failed = report.rules.filter((x) => x.status === "fail");
  t.equal(failed.length, 1, "one failure, then the run stopped");
  const stopped = report.rules.filter((x) => x.reason === `not run: --fail-fast stopped the run after ${failed[0]!.id} failed`);
  t.equal(stopped.length, rules.length - 1, "every other rule not run, saying why");
});

t.test("--config FILE holds any flag; the command line wins; a bad entry names the file", async (t) => {
  const target = await healthOnly();
  t.teardown(() => target.close());
  const dir = t.testdir({
    "conform.json": JSON.stringify({ $comment: "CI", target: target.url, "api-key": KEY, only: ["jobs.health.shape"], minCoverage: 0, seed: 5, quiet: true }),
    "bad.json": JSON.stringify({ target: target.url, "min-coverag": 10 }),
    "badvalue.json": JSON.stringify({ "min-coverage": "lots" }),
  });
  const r = await conformRun(["--config", join(dir, "conform.json"), "--report-dir", dir]);
  t.equal(r.code, 0, r.stderr);
  const report = await readReport(dir);
  t.same(report.rules.map((x) => [x.id, x.status]), [["jobs.health.shape", "pass"]]);
  t.equal(report.seed, 22, "--seed on the command line wins over the file's");
  t.notMatch(r.stdout, /seed 22\n/, "quiet from the file: no start line");
  const bad = await conformRun(["--config", join(dir, "bad.json")]);
  t.equal(bad.code, 2);
  t.match(bad.stderr, /--config .*bad\.json: "min-coverag" is no flag of cpsim conform/);
  const badValue = await conformRun(["--config", join(dir, "badvalue.json"), "--target", target.url, "--api-key", KEY]);
  t.equal(badValue.code, 2);
  t.match(badValue.stderr, /--min-coverage must be a number, got "lots"/);
  const missing = await conformRun(["--config", join(dir, "nope.json")]);
  t.equal(missing.code, 2);
  t.match(missing.stderr, /--config .*nope\.json: cannot read it \(ENOENT\)/);
});

t.test("a one-worker endpoint: a cancel is judged against the state read right before it, not one seen earlier", async (t) => {
  // Each job takes 3 s, one at a time: the job the suite saw IN_QUEUE has COMPLETED by the time a
  // second one is seen IN_PROGRESS, and this target refuses to cancel a finished job (409).
  const target = await oneWorkerEndpoint({ jobMs: 3_000 });
  t.teardown(() => target.close());
  const dir = t.testdir();
  const r = await conformRun(["--target", target.url, "--api-key", KEY, "--only", "jobs.cancel.response", "--report-dir", dir]);
  const report = await readReport(dir);
  const rule = report.rules[0]!;
  t.equal(rule.status, "pass", `${rule.reason ?? rule.failures[0]?.evidence.expected ?? ""}`);
  t.equal(r.code, 0);
  const cancels = target.seen.filter((s) => s.startsWith("POST /v2/conformance/cancel/"));
  t.ok(cancels.length >= 1, "a cancel was judged");
});
