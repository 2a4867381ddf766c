/**
 * The shadow platform follows the target (the platform model's pods and jobs adopt the states
 * the target was read in, and take the commands it accepted), and the health oracle's bounds
 * come from the model's count of the run's jobs.
 */
import t from "tap";
import { counterValue, modelHealthOracle } from "./health-oracle.ts";
import { nextAfter, outcomesFor } from "./oracle.ts";
import { platformOracle } from "./platform-oracle.ts";
import { ShadowPlatform } from "./shadow-platform.ts";

t.test("a shadow pod is created with the target's, takes what the target accepted, and adopts what it was read in", async (t) => {
  const shadow = new ShadowPlatform(7);
  shadow.podCreated("target-1", "gpu");
  t.equal(shadow.podStatus("target-1"), "PROVISIONING");
  t.match(shadow.shadowId("target-1"), /^[a-z0-9]+$/, "the shadow has an id of its own");
  t.not(shadow.shadowId("target-1"), "target-1");
  // The target is already RUNNING: the model's own moves get there (its clock steps on).
  shadow.podObserved("target-1", "RUNNING");
  t.equal(shadow.podStatus("target-1"), "RUNNING");
  shadow.podSent("target-1", "stop", 409);
  t.equal(shadow.podStatus("target-1"), "RUNNING", "a refused stop moves nothing");
  shadow.podSent("target-1", "stop", 200);
  t.equal(shadow.podStatus("target-1"), "EXITED", "an accepted stop moves the shadow as the model moves");
  // ERROR is no move the model makes from EXITED: the shadow is brought there afresh.
  const before = shadow.shadowId("target-1");
  shadow.podObserved("target-1", "ERROR");
  t.equal(shadow.podStatus("target-1"), "ERROR");
  t.not(shadow.shadowId("target-1"), before, "a shadow brought to a state afresh has a new id, mapped to the same target id");
  shadow.podSent("target-1", "delete", 204);
  t.equal(shadow.podStatus("target-1"), "TERMINATED");
  t.equal(shadow.podStatus("unknown"), undefined);
});

t.test("a shadow job follows the target's reads, cancel and retry", async (t) => {
  const shadow = new ShadowPlatform(7);
  shadow.jobSubmitted("job-1", "IN_QUEUE");
  t.equal(shadow.jobStatus("job-1"), "IN_QUEUE");
  shadow.jobObserved("job-1", "COMPLETED");
  t.equal(shadow.jobStatus("job-1"), "COMPLETED", "read COMPLETED: the model ran it");
  t.equal(shadow.jobHealth("job-1")?.jobs.completed, 1);
  shadow.jobSubmitted("job-2", "IN_QUEUE");
  shadow.jobObserved("job-2", "FAILED");
  shadow.jobSent("job-2", "retry", 200);
  shadow.jobObserved("job-2", "IN_QUEUE");
  t.equal(shadow.jobStatus("job-2"), "IN_QUEUE");
  t.equal(shadow.jobHealth("job-2")?.jobs.retried, 1, "the retry is counted, even by a shadow brought to IN_QUEUE afresh");
  shadow.jobSubmitted("job-3", "IN_QUEUE");
  shadow.jobSent("job-3", "cancel", 200);
  t.equal(shadow.jobStatus("job-3"), "CANCELLED");
});

t.test("same seed, same shadows", async (t) => {
  const ids = (seed: number) => {
    const s = new ShadowPlatform(seed);
    s.podCreated("a", "gpu");
    s.podCreated("b", "cpu");
    return [s.shadowId("a"), s.shadowId("b")];
  };
  t.same(ids(3), ids(3));
  t.notSame(ids(3), ids(4));
});

t.test("the pod sets are the model's answers", async (t) => {
  const strict = platformOracle("strict");
  const lenient = platformOracle("lenient");
  // A start of a TERMINATED pod: the model refuses it; the spec allows an idempotent acceptance that keeps it TERMINATED.
  t.same(outcomesFor(strict.pods.operation("TERMINATED", "start"), 200), [], "strict: 200 to starting a TERMINATED pod is outside the set");
  t.ok(outcomesFor(strict.pods.operation("TERMINATED", "start"), 409).length, "strict: the model's 409");
  t.same([...nextAfter(lenient.pods.operation("TERMINATED", "start"), 200)], ["TERMINATED"], "lenient: accepted, and still TERMINATED");
  t.ok(outcomesFor(lenient.pods.operation("TERMINATED", "start"), 409).length, "lenient: or refused");
  t.same([...nextAfter(strict.pods.operation("TERMINATED", "delete"), 204)], ["TERMINATED"], "strict: DELETE of a TERMINATED pod is idempotent");
  t.same([...nextAfter(strict.pods.operation("EXITED", "start"), 200)], ["STARTING", "RUNNING", "EXITED", "ERROR", "TERMINATED"], "a start goes to STARTING, and on by itself");
  t.notOk(nextAfter(strict.pods.operation("EXITED", "start"), 200).has("PROVISIONING"), "never back to PROVISIONING");
  t.same(strict.pods.drift("STARTING"), ["STARTING", "RUNNING", "EXITED", "ERROR", "TERMINATED"]);
});

t.test("health bounds: the model's count of the run's jobs, the least and the most over the states each may be in", async (t) => {
  const strict = modelHealthOracle("strict");
  const lenient = modelHealthOracle("lenient");
  type Jobs = Parameters<typeof strict.bounds>[0];
  const bound = (o: typeof strict, jobs: Jobs, counter: string, baseline?: Parameters<typeof strict.bounds>[1]) => o.bounds(jobs, baseline).find((f) => f.counter === counter);
  const jobs: Jobs = [{ possible: ["COMPLETED"] }, { possible: ["COMPLETED"] }, { possible: ["IN_PROGRESS"] }, { possible: ["IN_QUEUE", "IN_PROGRESS"] }, { possible: ["TIMED_OUT"] }];
  t.equal(bound(strict, jobs, "jobs.completed")?.floor, 2);
  t.equal(bound(strict, jobs, "jobs.inProgress")?.floor, 1, "a job that may still be queued counts in neither");
  t.equal(bound(strict, jobs, "jobs.inQueue")?.floor, 0);
  t.equal(bound(strict, jobs, "jobs.failed")?.floor, 1, "TIMED_OUT counts as failed");
  t.equal(bound(strict, jobs, "workers.running")?.floor, 1);
  t.equal(bound(lenient, jobs, "workers.idle + workers.running")?.floor, 1, "lenient: a busy worker is some worker");
  t.equal(bound(lenient, jobs, "jobs.retried"), undefined, "lenient: what retried counts is not the spec's");
  t.equal(bound(strict, [{ possible: ["CANCELLED"] }], "jobs.completed")?.floor, 0, "a CANCELLED job counts nowhere");
  t.equal(bound(strict, jobs, "jobs.completed")?.ceiling, undefined, "no ceiling without a baseline: other users may add anything");
  // A counter that went backwards: two COMPLETED jobs of the run's own, and the answer says 1.
  const body = { jobs: { completed: 1, failed: 1, inProgress: 1, inQueue: 0, retried: 0 }, workers: { idle: 0, running: 1 } };
  const below = strict.bounds(jobs).filter((f) => counterValue(body, f.counter) < f.floor);
  t.same(below.map((f) => f.counter), ["jobs.completed"]);
  t.equal(counterValue(body, "workers.idle + workers.running"), 1);
  // With a baseline nothing else moves: at most baseline plus what the jobs may add.
  const baseline = { jobs: { completed: 3, failed: 0, inProgress: 0, inQueue: 0, retried: 0 }, workers: { idle: 1, running: 0 } };
  t.equal(bound(strict, jobs, "jobs.completed", baseline)?.ceiling, 5);
  t.equal(bound(strict, jobs, "jobs.inQueue", baseline)?.ceiling, 1, "only the job that may still be queued");
  t.equal(bound(strict, jobs, "jobs.inProgress", baseline)?.ceiling, 2);
  // A job counted twice: the COMPLETED ones also as queued.
  const twice = { jobs: { completed: 5, failed: 1, inProgress: 1, inQueue: 3, retried: 0 }, workers: { idle: 0, running: 1 } };
  const above = strict.bounds(jobs, baseline).filter((f) => f.ceiling !== undefined && counterValue(twice, f.counter) > f.ceiling);
  t.same(above.map((f) => f.counter), ["jobs.inQueue"]);
  t.equal(bound(strict, [{ possible: [] }], "jobs.failed", baseline)?.ceiling, 1, "a job in no known state may add one anywhere");
});
