/**
 * jobs.health.exact against real-time targets without the control API (plain node:http job
 * endpoints, one worker, test-support/gate-targets.ts): health's inQueue one too high fails, a
 * count of the run's own jobs in the wrong counter fails, a correct endpoint passes, and an
 * endpoint another user's jobs occupy is a skip, never a failure.
 */
import t, { type Test } from "tap";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ConformanceReport } from "../../../reports/conformance-report.ts";
import { run } from "../../cli.ts";
import { oneWorkerEndpoint, type OneWorkerOptions } from "../../test-support/gate-targets.ts";

t.setTimeout(300_000);

const KEY = "sk-health-0123456789";
/** Long enough that the check's jobs hold their states through its reads. */
const JOB_MS = 30_000;

async function judge(t: Test, options: Omit<OneWorkerOptions, "jobMs">) {
  const target = await oneWorkerEndpoint({ jobMs: JOB_MS, ...options });
  t.teardown(() => target.close());
  const dir = t.testdir();
  const out: string[] = [];
  const io = { stdout: (s: string) => void out.push(s), stderr: (s: string) => void out.push(s) };
  const code = await run(["--target", target.url, "--api-key", KEY, "--only", "jobs.health.exact", "--seed", "22", "--report-dir", dir], io, { controlApi: false, terminalWidth: 100, tty: false });
  const report = JSON.parse(await readFile(join(dir, "report.json"), "utf8")) as ConformanceReport;
  const rule = report.rules.find((r) => r.id === "jobs.health.exact")!;
  return { code, rule, seen: target.seen, text: out.join("") };
}

t.test("a correct one-worker endpoint: the counts are judged in a stable window, and pass", async (t) => {
  const { code, rule, seen } = await judge(t, {});
  t.equal(rule.status, "pass", rule.reason ?? rule.failures[0]?.evidence.expected ?? "");
  t.equal(code, 0);
  t.notOk(seen.some((s) => s.includes("purge-queue")), "a quiet endpoint is never purged");
});

t.test("health computed a read behind the jobs (a cache): a window that does not match is read again, and the rule passes", async (t) => {
  let previous: Parameters<NonNullable<OneWorkerOptions["healthJobs"]>>[0] | undefined;
  const { rule } = await judge(t, {
    healthJobs: (c) => {
      const shown = previous ?? c;
      previous = c;
      return shown;
    },
  });
  t.equal(rule.status, "pass", rule.reason ?? rule.failures[0]?.evidence.expected ?? "");
});

t.test("health's inQueue one too high, always: no queue is there for a purge to remove, and the rule fails", async (t) => {
  const { code, rule, seen } = await judge(t, { healthJobs: (c) => ({ ...c, inQueue: c.inQueue + 1 }) });
  t.equal(rule.status, "fail", rule.reason ?? "");
  t.match(rule.failures[0]?.evidence.expected, /jobs\.inQueue 0 right after a purge-queue .* 2 purges in a row each removed 0 jobs/);
  t.equal(code, 1);
  t.equal(seen.filter((s) => s.includes("purge-queue")).length, 2, "two purges settle it");
});

t.test("health counting the run's running job in the queue too: the stable window shows it, and the rule fails", async (t) => {
  const { rule } = await judge(t, { healthJobs: (c) => ({ ...c, inQueue: c.inQueue + c.inProgress }) });
  t.equal(rule.status, "fail", rule.reason ?? "");
  t.match(rule.failures[0]?.evidence.expected, /inQueue 1 and inProgress 1: the check's 2 job\(s\).*got inQueue 2, inProgress 1 \(and with the check's jobs cancelled/);
});

t.test("another user's jobs on the endpoint (one running, one waiting behind it): a skip saying why, not a failure", async (t) => {
  const { code, rule, seen } = await judge(t, { foreignJobs: 2 });
  t.equal(rule.status, "skip");
  t.match(rule.reason, /health read inQueue 1, inProgress 1 over 5 reads .*jobs in progress that this check did not submit/);
  t.notOk(seen.some((s) => s.includes("purge-queue")), "others' work in progress is left alone");
  t.notOk(seen.some((s) => /^POST \/v2\/conformance\/run(\?|$)/.test(s)), "nothing submitted");
  // conform's timing measurement sends one runsync after the key check, before any rule (conformance/target-timing.ts):
  // its JSON is broken at the end, so it is refused once read, and makes no job.
  t.equal(seen.filter((s) => s.startsWith("POST /v2/conformance/runsync")).length, 1, "no runsync but the timing measurement's");
  t.equal(code, 2, "nothing was judged: exit 2");
});

t.test("another user's job waiting with nothing running: the purge shows it real, and the rule is a skip", async (t) => {
  // A job that sits in the queue while the worker is idle: the worker takes it only once the suite has come.
  const { rule } = await judge(t, { foreignJobs: 1, holdForeign: true });
  t.equal(rule.status, "skip");
  t.match(rule.reason, /purge-queue removed 1 waiting job\(s\) this check did not submit/);
});
