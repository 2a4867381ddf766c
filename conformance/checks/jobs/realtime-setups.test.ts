/**
 * Issue 31 item 6: set-ups that hold on a real-time target. Against the emulator on the wall
 * clock with a conformance endpoint of two workers (what a correct real-time platform looks
 * like to the suite: a free worker takes a job at once), two planted defects used to escape:
 * a cancelled running job that later completes anyway (the watch ended before the handler
 * would have), and a retried job that keeps its previous error while queued again (picked up at
 * once, it was never read queued). Each is caught now, and the clean target passes the same
 * rules; the purge rule sets up its scene (a job running, others queued) there too.
 */
import t from "tap";
import type { ApiResponse } from "../../../sim/api/types.ts";
import { mapAnswer, type Breakage } from "../../test-support/jobs/test-target.ts";
import { realTimeWorkersTarget, twoWorkerTarget } from "../../test-support/jobs/two-worker-target.ts";
import "./index.ts";
import { nextPrimaryMs } from "./purge-checks.ts";

/**
 * A cancel that answers CANCELLED and does nothing: the job reads CANCELLED while it is still
 * queued or running, and COMPLETED once its handler is done (the finding of issue 31: a watch
 * that ends before the handler would have ended sees only CANCELLED).
 */
function cancelReadsCancelledUntilDone(): Breakage {
  const lied = new Set<string>();
  const active = (r: ApiResponse) => {
    const status = (r.body as { status?: unknown } | undefined)?.status;
    return r.status === 200 && (status === "IN_QUEUE" || status === "IN_PROGRESS");
  };
  return (req, next) => {
    const m = /^\/v2\/[^/]+\/(cancel|status)\/([^/]+)$/.exec(req.path);
    if (m?.[1] === "cancel" && req.method === "POST") {
      const read = next({ ...req, method: "GET", path: req.path.replace(/\/cancel\//, "/status/"), body: undefined });
      if (read.kind === "response" && active(read.response)) {
        lied.add(m[2]!);
        return { kind: "response", response: { status: 200, headers: { "content-type": "application/json" }, body: { id: m[2], status: "CANCELLED" } } };
      }
      return next(req);
    }
    if (m?.[1] === "status" && lied.has(m[2]!)) return mapAnswer(next(req), (r) => (active(r) ? { ...r, body: { ...(r.body as object), status: "CANCELLED" } } : r));
    return next(req);
  };
}

const CASES = [
  { defect: "cancel-skips-running", rule: "jobs.cancel.running" },
  { defect: "retry-keeps-output", rule: "jobs.retry.output-removed" },
] as const;

for (const { defect, rule } of CASES) {
  t.test(`${defect}: ${rule} fails against a two-worker real-time target`, async (t) => {
    const target = await twoWorkerTarget([defect]);
    t.teardown(() => target.stop());
    const { report } = await target.run([rule]);
    const result = report.rules.find((r) => r.id === rule)!;
    t.equal(result.status, "fail", `${rule} caught ${defect}: ${result.reason ?? ""}`);
  });
}

t.test("a cancel that reads CANCELLED until the handler's end, then COMPLETED: jobs.cancel.running watches past that end and fails", async (t) => {
  const target = await twoWorkerTarget([], cancelReadsCancelledUntilDone());
  t.teardown(() => target.stop());
  const { report } = await target.run(["jobs.cancel.running"]);
  const result = report.rules[0]!;
  t.equal(result.status, "fail", result.reason ?? "");
  t.match(result.failures[0]?.evidence.expected, /never IN_PROGRESS or COMPLETED, even after the 15000 ms it would have run; got 200 .*COMPLETED/);
});

t.test("the clean two-worker real-time target passes those rules, and the purge scene comes about", async (t) => {
  const target = await twoWorkerTarget([]);
  t.teardown(() => target.stop());
  const rules = [...new Set(CASES.map((c) => c.rule as string)), "jobs.purge.queued-only"];
  const { report } = await target.run(rules);
  t.same(
    report.rules.map((r) => [r.id, r.status, r.reason ?? ""]),
    rules.map((id) => [id, "pass", ""]),
  );
});

/**
 * Every worker the endpoint's health reports is held before a job is expected to wait: against
 * eight idle workers, six submissions (the old fixed number) all ran at once, and the rules
 * whose scene needs a job IN_QUEUE were skipped as set-up not reached.
 */
t.test("eight idle workers by health: the queued set-ups hold them all, and the rules are judged", async (t) => {
  const clean = await realTimeWorkersTarget([], { workersMin: 8, workersMax: 8 });
  t.teardown(() => clean.stop());
  const rules = ["jobs.cancel.queued", "jobs.retry.output-removed", "jobs.purge.queued-only"];
  const { report } = await clean.run(rules);
  t.same(
    report.rules.map((r) => [r.id, r.status, r.reason ?? ""]),
    rules.map((id) => [id, "pass", ""]),
  );
  t.equal(report.summary.setupNotReached, 0);
  const broken = await realTimeWorkersTarget(["retry-keeps-output"], { workersMin: 8, workersMax: 8 });
  t.teardown(() => broken.stop());
  const caught = (await broken.run(["jobs.retry.output-removed"])).report.rules[0]!;
  t.equal(caught.status, "fail", `retry-keeps-output caught behind eight held workers: ${caught.reason ?? ""}`);
});

t.test("the purge scene's next try: the job to follow sleeps twice as long, and at least twice what the failed scene took", async (t) => {
  t.equal(nextPrimaryMs(4_000, 1_000), 8_000, "a quick scene: doubled");
  t.equal(nextPrimaryMs(4_000, 9_000), 20_000, "a scene slower than the sleep (a busy target): twice its length and 2 s");
  t.equal(nextPrimaryMs(40_000, 50_000), 60_000, "capped at a minute");
});
