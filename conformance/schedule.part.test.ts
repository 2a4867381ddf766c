/** Lanes: which rules run beside which, and groups judged by one shared run. */
import t from "tap";
import type { CheckGroup, CheckOutcome } from "./check.ts";
import { CheckRegistry } from "./check-registry.ts";
import { describePlan, JOB_LANE_MAX_WIDTH, JOB_LANE_WIDTH, jobLaneWidth, laneUnits, planLanes } from "./schedule.ts";

function registry(): { registry: CheckRegistry; runs: string[][] } {
  const runs: string[][] = [];
  const group: CheckGroup = {
    id: "pods.lifecycle",
    run: async (members) => {
      runs.push([...members.keys()]);
      return new Map<string, CheckOutcome>([...members].map(([id, ctx]) => [id, ctx.pass()]));
    },
  };
  const r = new CheckRegistry();
  r.register("pods.create.unknown-property", () => {});
  r.registerGroup(group, ["pods.status-enum", "pods.actions-enum", "pods.transition-legal"]);
  r.register("jobs.not-found", () => {});
  r.register("jobs.health.exact", () => {});
  r.register("graphql.envelope", () => {});
  r.register("auth.missing-key", () => {});
  r.register("ratelimit.headers-present", () => {});
  r.register("ratelimit.429-when-spent", () => {});
  r.register("errors.problem-json", () => {});
  return { registry: r, runs };
}

t.test("against a real-time target the areas are concurrent lanes; rate limits on the shared key first and alone", async (t) => {
  const { registry: r } = registry();
  const ids = r.list().map((c) => c.ruleId);
  const plan = planLanes(ids, r, true);
  t.same(
    plan.concurrent.map((l) => [l.name, l.units.map((u) => u.ids)]),
    [
      ["pods", [["pods.create.unknown-property"], ["errors.problem-json"]]],
      ["pods.lifecycle", [["pods.status-enum", "pods.actions-enum", "pods.transition-legal"]]],
      ["jobs", [["jobs.not-found"]]],
      ["graphql", [["graphql.envelope"]]],
      ["auth", [["auth.missing-key"], ["ratelimit.429-when-spent"]]],
    ],
    "the other account's window is spent in the auth lane, after the auth rules",
  );
  t.same(plan.before.map((l) => [l.name, l.units.map((u) => u.ids)]), [["ratelimit", [["ratelimit.headers-present"]]]], "the counting on the full-access key runs first, alone");
  t.same(plan.after.map((l) => [l.name, l.units.map((u) => u.ids)]), [["endpoint-alone", [["jobs.health.exact"]]]], "health's exact counts are read once every other lane is done");
});

t.test("where the suite moves the target's clock, one lane in registration order", async (t) => {
  const { registry: r } = registry();
  const ids = r.list().map((c) => c.ruleId);
  const plan = planLanes(ids, r, false);
  t.equal(plan.concurrent.length, 1);
  t.same(plan.concurrent[0]!.units.map((u) => u.ids[0]), ["pods.create.unknown-property", "pods.status-enum", "jobs.not-found", "jobs.health.exact", "graphql.envelope", "auth.missing-key", "errors.problem-json"]);
  t.equal(plan.after[0]!.units.length, 2, "rate limits last, as registered");
  t.same(plan.before, []);
});

t.test("only the selected members of a group join its unit; each member also runs alone", async (t) => {
  const { registry: r, runs } = registry();
  const plan = planLanes(["pods.status-enum", "pods.transition-legal"], r, true);
  t.same(plan.concurrent.map((l) => l.units.map((u) => u.ids)), [[["pods.status-enum", "pods.transition-legal"]]], "one unit, where its first member stands");
  const ctx = { pass: () => ({ status: "pass" }) } as never;
  t.same(await r.get("pods.actions-enum")!.run(ctx), { status: "pass" });
  t.same(runs, [["pods.actions-enum"]], "alone, the group runs with that member only");
});

t.test("GraphQL's stop and resume rules, a pod's whole start each, run in two lanes of their own beside the rest of GraphQL", async (t) => {
  const r = new CheckRegistry();
  for (const id of ["graphql.envelope", "graphql.pod-stop.fields", "graphql.pod-resume.running", "graphql.pod-stop.exited", "graphql.pod-resume.fields", "graphql.runtime.types"]) r.register(id, () => {});
  const plan = planLanes(r.list().map((c) => c.ruleId), r, true);
  t.same(
    plan.concurrent.map((l) => [l.name, l.units.map((u) => u.ids[0])]),
    [
      ["graphql", ["graphql.envelope", "graphql.runtime.types"]],
      ["graphql-stop", ["graphql.pod-stop.fields", "graphql.pod-stop.exited"]],
      ["graphql-resume", ["graphql.pod-resume.running", "graphql.pod-resume.fields"]],
    ],
  );
  t.equal(planLanes(r.list().map((c) => c.ruleId), r, false).concurrent.length, 1, "where the suite moves the clock, still one lane");
});

t.test("against a real-time target the job rules run JOB_LANE_WIDTH at a time, slowest known first; purge-queue's senders in an exclusive window", async (t) => {
  const r = new CheckRegistry();
  const ids = ["jobs.not-found", "jobs.purge.queued-only", "jobs.cancel.running", "jobs.empty-body", "jobs.status.values", "jobs.cancel.never-completes", "jobs.purge.count", "jobs.health.exact", "pods.create.unknown-property"];
  for (const id of ids) r.register(id, () => {});
  const plan = planLanes(ids, r, true);
  const jobs = plan.concurrent.find((l) => l.name === "jobs")!;
  t.equal(jobs.width, JOB_LANE_WIDTH);
  t.same(jobs.units.map((u) => u.ids[0]), ["jobs.cancel.never-completes", "jobs.cancel.running", "jobs.not-found", "jobs.status.values"], "the slowest known first, the rest in registration order");
  t.same(jobs.exclusive?.units.map((u) => u.ids[0]), ["jobs.purge.queued-only", "jobs.empty-body", "jobs.purge.count"], "every rule that sends purge-queue, alone after the others");
  t.match(jobs.exclusive?.why, /purge-queue/);
  t.same(laneUnits(jobs).length, 7);
  t.same(plan.after.map((l) => l.units.map((u) => u.ids[0])), [["jobs.health.exact"]], "health's exact counts still after every lane");
  const words = describePlan(plan);
  t.ok(words.includes(`side by side: jobs: 4 rules, ${JOB_LANE_WIDTH} at a time; then alone: jobs.purge.queued-only, jobs.empty-body, jobs.purge.count (${jobs.exclusive!.why})`), "the schedule says which rules run alone and why");
  t.ok(words.includes("after the others, alone: endpoint-alone: 1 rule one after the other"));
  const turns = planLanes(ids, r, false);
  t.same(turns.concurrent.map((l) => [l.width, l.exclusive]), [[undefined, undefined]], "where the suite moves the clock, one lane, one rule at a time");
});

t.test("the cancel rules' shared run is one unit of the jobs lane, ranked as its slowest member, not a lane of its own", async (t) => {
  const r = new CheckRegistry();
  const group: CheckGroup = { id: "jobs.cancel", run: async (members) => new Map([...members].map(([id, ctx]) => [id, ctx.pass()])) };
  r.register("jobs.not-found", () => {});
  r.registerGroup(group, ["jobs.cancel.queued", "jobs.cancel.never-completes"]);
  r.register("jobs.purge.count", () => {});
  const plan = planLanes(r.list().map((c) => c.ruleId), r, true);
  t.same(plan.concurrent.map((l) => l.name), ["jobs"]);
  t.same(plan.concurrent[0]!.units.map((u) => u.ids), [["jobs.cancel.queued", "jobs.cancel.never-completes"], ["jobs.not-found"]]);
  t.same(plan.concurrent[0]!.exclusive?.units.map((u) => u.ids), [["jobs.purge.count"]], "still before purge's exclusive window");
});

t.test("the jobs lane's width follows the workers the endpoint's health reports: two a worker, floor and ceiling, and says why", async (t) => {
  const w = (idle: unknown, running: unknown) => jobLaneWidth({ jobs: {}, workers: { idle, running } });
  t.same(w(2, 1), { width: 6, why: "health reported 3 workers (idle 2, running 1): 2 a worker, within 4–8" });
  t.equal(w(0, 0).width, JOB_LANE_WIDTH, "scaled to zero: the floor");
  t.equal(w(1, 0).width, JOB_LANE_WIDTH, "one worker: the floor");
  t.equal(w(10, 30).width, JOB_LANE_MAX_WIDTH, "many workers: the ceiling");
  t.same(jobLaneWidth(undefined), { width: JOB_LANE_WIDTH, why: `health reported no worker counts: the floor, ${JOB_LANE_WIDTH}` });
  t.equal(w("2", -1).width, JOB_LANE_WIDTH, "counts that are not whole numbers: the floor");
  const r = new CheckRegistry();
  for (const id of ["jobs.not-found", "jobs.status.values"]) r.register(id, () => {});
  const plan = planLanes(["jobs.not-found", "jobs.status.values"], r, true, w(3, 0));
  t.same(plan.concurrent[0]!.width, 6);
  t.same(describePlan(plan), ["side by side: jobs: 2 rules, 6 at a time (health reported 3 workers (idle 3, running 0): 2 a worker, within 4–8)"]);
});
