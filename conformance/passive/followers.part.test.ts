// The followers on hand-made exchanges: a job's moves along the spec's table, a result after CANCELLED, a retried job showing its old output, a pod back from TERMINATED, remaining counts that rise.
import t from "tap";
import { seenFromRecorded, type SeenExchange } from "./answer.ts";
import { PassiveJudge } from "./passive-judge.ts";

let clock = 0;
function x(method: string, path: string, status: number, body: unknown, headers: Record<string, string> = {}): SeenExchange {
  const sentAt = (clock += 10);
  return seenFromRecorded(
    {
      request: { method, url: `http://target.test${path}`, headers: { authorization: "Bearer key-1234567890" } },
      response: { status, headers: { "content-type": "application/json", ...headers }, body: body === undefined ? "" : JSON.stringify(body) },
    },
    { seq: clock / 10, sentAt, answeredAt: sentAt + 5, keyId: "k1" },
  );
}

/** The findings of the followers' rules (the hand-made answers carry no RateLimit headers, and the runs no body). */
const FOLLOWED = ["jobs.transition-legal", "jobs.cancel.never-completes", "jobs.retry.output-removed", "pods.transition-legal", "ratelimit.remaining-decreases"];
const failed = (j: PassiveJudge, xs: SeenExchange[]) =>
  xs.flatMap((e) => j.judge(e)).filter((f) => FOLLOWED.includes(f.rule.id)).map((f) => `${f.rule.id} [${f.side}]`);

t.test("jobs: legal moves pass; COMPLETED after CANCELLED, a move back to IN_QUEUE, old output after a retry are found", async (t) => {
  const legal = new PassiveJudge();
  t.same(failed(legal, [
    x("POST", "/v2/ep/run", 200, { id: "j1", status: "IN_QUEUE" }),
    x("GET", "/v2/ep/status/j1", 200, { id: "j1", status: "IN_PROGRESS" }),
    x("GET", "/v2/ep/status/j1", 200, { id: "j1", status: "FAILED", error: "boom" }),
    x("POST", "/v2/ep/retry/j1", 200, { id: "j1", status: "IN_QUEUE" }),
    x("GET", "/v2/ep/status/j1", 200, { id: "j1", status: "IN_QUEUE" }),
    x("GET", "/v2/ep/status/j1", 200, { id: "j1", status: "COMPLETED", output: 1 }),
  ]), []);
  t.equal(legal.tallies.get("jobs.retry.output-removed")?.judged, 1, "the requeued retry was judged");
  t.ok(legal.transitions.has("job:FAILED->IN_QUEUE"), "coverage: the retry's move");

  const cancelled = new PassiveJudge();
  t.same(failed(cancelled, [
    x("POST", "/v2/ep/run", 200, { id: "j2", status: "IN_QUEUE" }),
    x("POST", "/v2/ep/cancel/j2", 200, { id: "j2", status: "CANCELLED" }),
    x("GET", "/v2/ep/status/j2", 200, { id: "j2", status: "COMPLETED", output: 1 }),
  ]), ["jobs.cancel.never-completes [target]"]);

  const back = new PassiveJudge();
  t.same(failed(back, [
    x("GET", "/v2/ep/status/j3", 200, { id: "j3", status: "IN_PROGRESS" }),
    x("GET", "/v2/ep/status/j3", 200, { id: "j3", status: "IN_QUEUE" }),
  ]), ["jobs.transition-legal [target]"]);

  const kept = new PassiveJudge();
  t.same(failed(kept, [
    x("GET", "/v2/ep/status/j4", 200, { id: "j4", status: "FAILED", error: "boom", output: { partial: true } }),
    x("POST", "/v2/ep/retry/j4", 200, { id: "j4", status: "IN_QUEUE" }),
    x("GET", "/v2/ep/status/j4", 200, { id: "j4", status: "IN_QUEUE", output: { partial: true } }),
  ]), ["jobs.retry.output-removed [target]"]);
});

t.test("jobs: a stream read that still gives chunks (one a read) after the job read COMPLETED is no move back and no poll; a stream's final status is followed", async (t) => {
  const lagging = new PassiveJudge();
  const chunk = (n: number) => x("GET", "/v2/ep/stream/j5", 200, { status: "IN_PROGRESS", stream: [{ output: n }] });
  const reads = [
    x("POST", "/v2/ep/run", 200, { id: "j5", status: "IN_QUEUE" }),
    x("GET", "/v2/ep/status/j5", 200, { id: "j5", status: "COMPLETED", output: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] }),
    ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map(chunk),
    x("GET", "/v2/ep/stream/j5", 200, { status: "COMPLETED", stream: [] }),
  ];
  const findings = reads.flatMap((e) => lagging.judge(e));
  t.same(findings.filter((f) => ["jobs.transition-legal", "client.poll-finished-job"].includes(f.rule.id)).map((f) => f.rule.id), [], "a stream that reports its end later than the status read");

  const back = new PassiveJudge();
  t.same(failed(back, [
    x("GET", "/v2/ep/stream/j6", 200, { status: "COMPLETED", stream: [] }),
    x("GET", "/v2/ep/status/j6", 200, { id: "j6", status: "IN_PROGRESS" }),
  ]), ["jobs.transition-legal [target]"], "a stream's final status, then a status read that goes back");
});

t.test("pods: TERMINATED never comes back; exchanges not ordered by the traffic are not compared", async (t) => {
  const j = new PassiveJudge();
  t.same(failed(j, [
    x("GET", "/v2/pods/p1", 200, { id: "p1", status: "RUNNING" }),
    x("GET", "/v2/pods/p1", 200, { id: "p1", status: "TERMINATED" }),
    x("GET", "/v2/pods", 200, { pods: [{ id: "p1", status: "RUNNING" }] }),
  ]), ["pods.transition-legal [target]"]);
  const overlapping = new PassiveJudge();
  const a = x("GET", "/v2/pods/p2", 200, { id: "p2", status: "TERMINATED" });
  // Sent before the TERMINATED answer arrived: the two reads overlap, and nothing follows from their order.
  const b = { ...x("GET", "/v2/pods/p2", 200, { id: "p2", status: "RUNNING" }), sentAt: a.answeredAt - 1 };
  t.same(failed(overlapping, [a, b]), []);
});

t.test("RateLimit: a drop of several is another user's share, and r rising before t is a window giving quota back", async (t) => {
  const rl = (r: number) => ({ ratelimit: `"minute";r=${r};t=50`, "ratelimit-policy": '"minute";q=100;w=60' });
  const health = (r: number) => x("GET", "/v2/ep/health", 200, { jobs: {}, workers: {} }, rl(r));
  const j = new PassiveJudge();
  t.same(failed(j, [health(90), health(80)]).filter((f) => f.startsWith("ratelimit.remaining")), []);
  // A sliding window whose t names the whole quota's return gives quota back before t (docs/conventions.md, rateWindows=sliding-whole).
  t.same(failed(j, [health(85)]).filter((f) => f.startsWith("ratelimit.remaining")), [], "r rose from 80 to 85 with t=50: no finding");
  // Counts that never move over many answers, writes among them, still break the rule.
  const still = new PassiveJudge();
  const writes = Array.from({ length: 12 }, () => ({ ...x("POST", "/v2/ep/run", 200, { id: "j", status: "IN_QUEUE" }, rl(70)) }));
  t.same(failed(still, writes), [], "no finding while the answers come");
  t.same(still.finish().map((f) => `${f.rule.id} [${f.side}]`), ["ratelimit.remaining-decreases [target]"], "never moved over 12 writes: a finding at the end");
});

t.test("a follower keeps the slim form of an exchange (bodies cut, nothing parsed), never the exchange itself", async (t) => {
  const j = new PassiveJudge();
  const slimmed: SeenExchange[] = [];
  const withSlim = (e: SeenExchange): SeenExchange => ({ ...e, slim: () => (slimmed.push({ ...e, seq: e.seq + 1000 }), slimmed[slimmed.length - 1]) });
  const findings = [
    x("POST", "/v2/ep/run", 200, { id: "j9", status: "IN_QUEUE" }),
    x("POST", "/v2/ep/cancel/j9", 200, { id: "j9", status: "CANCELLED" }),
    x("GET", "/v2/ep/status/j9", 200, { id: "j9", status: "COMPLETED", output: 1 }),
  ].flatMap((e) => j.judge(withSlim(e)));
  const hit = findings.find((f) => f.rule.id === "jobs.cancel.never-completes");
  t.ok(slimmed.length >= 2, "the follower asked for the slim forms");
  t.ok(hit?.failure?.evidence.sequence?.length, "the finding quotes the earlier exchange");
  t.ok(slimmed.some((s) => s.seq > 1000), "what it kept is the slim form");
});
