/** The oracle's sets: what the spec allows (lenient), narrowed to the emulator's choices (strict). */
import t from "tap";
import fc from "fast-check";
import type { CheckContext } from "../check.ts";
import { JobTrace } from "../checks/jobs/support/job-trace.ts";
import type { Exchange } from "../recorder.ts";
import { nextAfter, outcomesFor, statusMatches, type PodOperation } from "./oracle.ts";
import { platformOracle } from "./platform-oracle.ts";

const lenient = platformOracle("lenient");
const strict = platformOracle("strict");
const POD = ["PROVISIONING", "STARTING", "RUNNING", "EXITED", "ERROR", "TERMINATED"];
const JOB = ["IN_QUEUE", "IN_PROGRESS", "COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"];
const OPS: PodOperation[] = ["start", "stop", "restart", "terminate", "delete", "patch"];

t.test("pods: moves on their own, and TERMINATED is final", async (t) => {
  t.same(lenient.pods.drift("TERMINATED"), ["TERMINATED"]);
  t.ok(lenient.pods.drift("PROVISIONING").includes("RUNNING"), "a read may miss STARTING");
  t.notOk(lenient.pods.drift("RUNNING").includes("PROVISIONING"));
  for (const op of OPS) {
    for (const oracle of [lenient, strict]) {
      const after = nextAfter(oracle.pods.operation("TERMINATED", op), 200);
      t.ok([...after].every((s) => s === "TERMINATED"), `${oracle.profile} ${op} never revives a TERMINATED pod`);
    }
  }
});

t.test("pods under strict: choices.md's actions table and status codes", async (t) => {
  const stop = strict.pods.operation("RUNNING", "stop");
  t.same(outcomesFor(stop, 200).flatMap((o) => o.next), ["EXITED", "ERROR", "TERMINATED"]);
  t.same(outcomesFor(stop, 409), [], "stop is allowed when RUNNING");
  t.same(outcomesFor(strict.pods.operation("EXITED", "stop"), 200), [], "stop of an EXITED pod is refused");
  t.equal(outcomesFor(strict.pods.operation("EXITED", "stop"), 409).length, 1);
  const start = strict.pods.operation("EXITED", "start");
  t.ok(outcomesFor(start, 200).length && outcomesFor(start, 409).length, "start of an EXITED pod: done, or 409 when its host's GPUs were taken");
  t.same([...nextAfter(strict.pods.operation("RUNNING", "terminate"), 204)], ["TERMINATED"]);
  t.same(outcomesFor(strict.pods.operation("RUNNING", "terminate"), 200), [], "terminate answers 204, not 200");
  t.same([...nextAfter(strict.pods.operation("RUNNING", "delete"), 204)], ["TERMINATED"]);
  t.ok(outcomesFor(strict.pods.operation("PROVISIONING", "restart"), 200).length, "the pod may have reached RUNNING since the read");
});

t.test("pods under lenient: a refusal or any accepted move except out of TERMINATED", async (t) => {
  for (const from of POD.filter((s) => s !== "TERMINATED")) {
    for (const op of OPS) {
      const outcomes = lenient.pods.operation(from, op);
      t.ok(outcomes.some((o) => statusMatches(o.status, 400)) && outcomes.some((o) => statusMatches(o.status, 204)), `${op} on ${from}: 4xx or 2xx`);
      t.same([...nextAfter(outcomes, 409)].sort(), [...lenient.pods.drift(from)].sort(), "after a refusal, nothing but the pod's own moves");
    }
  }
});

t.test("property: strict narrows lenient, never widens it", async () => {
  const statuses = [200, 201, 204, 400, 404, 409, 422];
  fc.assert(
    fc.property(fc.constantFrom(...POD), fc.constantFrom(...OPS), fc.constantFrom(...statuses), (from, op, status) => {
      const narrow = nextAfter(strict.pods.operation(from, op), status);
      const wide = nextAfter(lenient.pods.operation(from, op), status);
      return [...narrow].every((s) => wide.has(s));
    }),
  );
  fc.assert(
    fc.property(fc.subarray(JOB, { minLength: 1 }), fc.constantFrom("cancel" as const, "retry" as const), fc.constantFrom(...statuses), (possible, command, status) => {
      const narrow = nextAfter(strict.jobs.command(possible, command), status);
      const wide = nextAfter(lenient.jobs.command(possible, command), status);
      return [...narrow].every((s) => wide.has(s));
    }),
  );
});

t.test("jobs: the table's moves, and cancel or retry answered within the set", async (t) => {
  t.ok(lenient.jobs.drift(["IN_QUEUE"]).includes("COMPLETED"), "polling may miss IN_PROGRESS");
  t.same(lenient.jobs.drift(["COMPLETED"]), ["COMPLETED"], "final states stay final");
  t.notOk(lenient.jobs.drift(["FAILED"]).includes("IN_QUEUE"), "only a retry brings a job back");
  t.same([...nextAfter(strict.jobs.command(["IN_PROGRESS"], "cancel"), 200)], ["CANCELLED"]);
  t.ok(nextAfter(lenient.jobs.command(["CANCELLED"], "cancel"), 200).has("CANCELLED"), "lenient: a second cancel answered CANCELLED moves nothing");
  t.same([...nextAfter(strict.jobs.command(["CANCELLED"], "cancel"), 200)], [], "strict: the emulator refuses it");
  t.notOk(nextAfter(lenient.jobs.command(["COMPLETED"], "cancel"), 200).has("CANCELLED"), "a COMPLETED job never becomes CANCELLED");
  t.ok(nextAfter(lenient.jobs.command(["FAILED"], "retry"), 200).has("IN_QUEUE"));
  t.notOk(nextAfter(lenient.jobs.command(["COMPLETED"], "retry"), 200).has("IN_QUEUE"), "only FAILED or TIMED_OUT jobs are retried");
});

t.test("the job trace judges by the oracle of the run's profile", async (t) => {
  const exchange = { request: { method: "POST", url: "http://x/", headers: {} } } as Exchange;
  const trace = (profile: "lenient" | "strict") =>
    new JobTrace({ oracle: platformOracle(profile), options: { profile }, exercised: () => {} } as unknown as CheckContext);
  for (const profile of ["lenient", "strict"] as const) {
    const tr = trace(profile);
    tr.submitted("a", "IN_QUEUE");
    tr.cancelled("a", "CANCELLED", exchange);
    tr.cancelled("a", "CANCELLED", exchange);
    t.equal(tr.illegal.length, profile === "lenient" ? 0 : 1, `${profile}: a repeated cancel answered CANCELLED`);
    tr.observed("a", "COMPLETED", exchange);
    t.match(tr.illegal[tr.illegal.length - 1]?.to, "COMPLETED", `${profile}: a CANCELLED job that later completes is illegal`);
  }
});
