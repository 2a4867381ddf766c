// --sole-client's rules on hand-made exchanges: a job read CANCELLED that no cancel or purge asked for, health's inQueue and purge-queue's removed above the jobs that may still be queued; none judged without the option.
import t from "tap";
import { seenFromRecorded, type SeenExchange } from "./answer.ts";
import { PassiveJudge } from "./passive-judge.ts";

let clock = 0;
function x(method: string, path: string, body: unknown, status = 200): SeenExchange {
  const sentAt = (clock += 10);
  return seenFromRecorded(
    { request: { method, url: `http://target.test${path}`, headers: {} }, response: { status, headers: { "content-type": "application/json" }, body: JSON.stringify(body) } },
    { seq: clock / 10, sentAt, answeredAt: sentAt + 5 },
  );
}

const RULES = ["jobs.transition-legal", "jobs.health.counters", "jobs.purge.count"];
function run(xs: SeenExchange[], soleClient = true) {
  const judge = new PassiveJudge({ soleClient });
  const found = xs.flatMap((e) => judge.judge(e)).filter((f) => RULES.includes(f.rule.id)).map((f) => `${f.rule.id}: ${f.expected}`);
  return { found, judged: Object.fromEntries(RULES.map((r) => [r, judge.tallies.get(r)?.judged ?? 0])) };
}
const health = (inQueue: number) => x("GET", "/v2/ep/health", { jobs: { completed: 0, failed: 0, inProgress: 0, inQueue, retried: 0 }, workers: { idle: 0, running: 0 } });

t.test("a job seen IN_PROGRESS and read CANCELLED with no cancel sent: found; with its cancel, or without --sole-client: not", async (t) => {
  const lied = [x("POST", "/v2/ep/run", { id: "j1", status: "IN_QUEUE" }), x("GET", "/v2/ep/status/j1", { id: "j1", status: "IN_PROGRESS" }), x("GET", "/v2/ep/status/j1", { id: "j1", status: "CANCELLED" })];
  const r = run(lied);
  t.equal(r.found.length, 1);
  t.match(r.found[0], /^jobs\.transition-legal: a job becomes CANCELLED only by a cancel .* job j1 was IN_PROGRESS .* no cancel or purge sent for it/);
  t.same(run(lied, false).found, [], "without --sole-client another client's cancel explains it");
  const asked = run([x("POST", "/v2/ep/run", { id: "j2", status: "IN_QUEUE" }), x("POST", "/v2/ep/cancel/j2", { id: "j2", status: "IN_PROGRESS" }), x("GET", "/v2/ep/status/j2", { id: "j2", status: "CANCELLED" })]);
  t.same(asked.found, []);
  const purged = run([x("POST", "/v2/ep/run", { id: "j3", status: "IN_QUEUE" }), x("POST", "/v2/ep/purge-queue", { removed: 1 }), x("GET", "/v2/ep/status/j3", { id: "j3", status: "CANCELLED" })]);
  t.same(purged.found, [], "a purge of its endpoint while it was queued");
  const before = run([x("POST", "/v2/ep/purge-queue", { removed: 0 }), x("POST", "/v2/ep/run", { id: "j4", status: "IN_QUEUE" }), x("GET", "/v2/ep/status/j4", { id: "j4", status: "CANCELLED" })]);
  t.equal(before.found.length, 1, "a purge before the job was submitted asked nothing of it");
});

t.test("health's inQueue and purge's removed: at most the jobs that may still be queued", async (t) => {
  const r = run([
    x("POST", "/v2/ep/run", { id: "a", status: "IN_QUEUE" }),
    x("POST", "/v2/ep/run", { id: "b", status: "IN_QUEUE" }),
    health(2),
    x("GET", "/v2/ep/status/a", { id: "a", status: "COMPLETED", output: 1 }),
    health(1),
    health(2),
    x("POST", "/v2/ep/purge-queue", { removed: 1 }),
    health(0),
    x("POST", "/v2/ep/purge-queue", { removed: 1 }),
  ]);
  t.equal(r.found.length, 2, r.found.join("\n"));
  t.match(r.found[0], /^jobs\.health\.counters: .*at most 1 of endpoint ep's jobs .* inQueue 2$/);
  t.match(r.found[1], /^jobs\.purge\.count: .*at most 0 of endpoint ep's jobs .* removed 1$/);
  t.same([r.judged["jobs.health.counters"], r.judged["jobs.purge.count"]], [4, 2], "each health and purge judged");
  const off = run([health(1), x("POST", "/v2/ep/purge-queue", { removed: 3 })], false);
  t.same(off, { found: [], judged: { "jobs.transition-legal": 0, "jobs.health.counters": 0, "jobs.purge.count": 0 } }, "not judged without --sole-client");
});
