// podAction against choices.md's table: every action in every reachable status, the answer
// (200 Pod, 204 for terminate, 409 naming the status and what it allows), locked pods, a start
// whose host was filled meanwhile, and the body rules.
import t from "tap";
import { seconds } from "../../../core/index.ts";
import { gpuPodBody, harness, problemErrors, schemaErrors, type Harness } from "./test-api.ts";

type PodBody = Record<string, any>;
type Status = "PROVISIONING" | "STARTING" | "RUNNING" | "EXITED" | "ERROR" | "TERMINATED";
type Action = "start" | "stop" | "restart" | "terminate";

/** choices.md, "Allowed actions by status", written out here as the test's own expectation. */
const TABLE: Readonly<Record<Status, readonly Action[]>> = {
  PROVISIONING: ["stop", "terminate"],
  STARTING: ["stop", "terminate"],
  RUNNING: ["stop", "restart", "terminate"],
  EXITED: ["start", "terminate"],
  ERROR: ["start", "terminate"],
  TERMINATED: [],
};
const ACTIONS: readonly Action[] = ["start", "stop", "restart", "terminate"];
/** Where an allowed action leads (terminate answers 204; the pod then reads TERMINATED). */
const NEXT: Readonly<Record<Action, Status>> = { start: "STARTING", stop: "EXITED", restart: "STARTING", terminate: "TERMINATED" };

const statusOf = (h: Harness, id: string): Status => (h.call("GET", `/v2/pods/${id}`).body as PodBody).status;
const act = (h: Harness, id: string, action: unknown) => h.call("POST", `/v2/pods/${id}/action`, { body: { action } });

/** Advances time a second at a time (at most an hour) until the pod reads `status`. */
function waitFor(h: Harness, id: string, status: Status): void {
  for (let i = 0; i < 3600 && statusOf(h, id) !== status; i++) h.advance(seconds(1));
  if (statusOf(h, id) !== status) throw new Error(`pod ${id} never reached ${status}`);
}

/** A fresh platform and a pod in `status`, reached the way a client would. */
function podIn(status: Status): { h: Harness; id: string } {
  // Every container start fails on this platform, so ERROR is reachable.
  const h = harness(status === "ERROR" ? { pods: { failureRate: 1 } } : {});
  const res = h.call("POST", "/v2/pods", { body: gpuPodBody() });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  const id = (res.body as PodBody).id as string;
  if (status === "STARTING" || status === "RUNNING" || status === "ERROR") waitFor(h, id, status);
  if (status === "EXITED") {
    waitFor(h, id, "RUNNING");
    act(h, id, "stop");
  }
  if (status === "TERMINATED") h.call("DELETE", `/v2/pods/${id}`);
  if (statusOf(h, id) !== status) throw new Error(`could not bring a pod to ${status}`);
  return { h, id };
}

for (const status of Object.keys(TABLE) as Status[]) {
  t.test(`${status}: actions ${JSON.stringify(TABLE[status])}`, async (t) => {
    const shown = podIn(status);
    t.same((shown.h.call("GET", `/v2/pods/${shown.id}`).body as PodBody).actions, TABLE[status], "the Pod's actions list is the table's");
    for (const action of ACTIONS) {
      const { h, id } = podIn(status);
      const res = act(h, id, action);
      if (TABLE[status].includes(action)) {
        if (action === "terminate") {
          t.equal(res.status, 204, `${action}: 204`);
          t.equal(res.body, undefined);
        } else {
          t.equal(res.status, 200, `${action}: 200 ${JSON.stringify(res.body)}`);
          t.same(schemaErrors("cpsim:Pod", res.body), []);
          t.equal((res.body as PodBody).status, NEXT[action], `${action} answers the pod in ${NEXT[action]}`);
          t.same((res.body as PodBody).actions, TABLE[NEXT[action]]);
        }
        t.equal(statusOf(h, id), NEXT[action], `${action}: the pod reads ${NEXT[action]}`);
      } else {
        t.same(problemErrors(res, 409), [], `${action}: 409`);
        const detail = (res.body as PodBody).detail as string;
        t.match(detail, new RegExp(`is ${status}, which does not allow ${action}`), "the detail names the status");
        if (TABLE[status].length === 0) t.match(detail, /allows no actions/);
        else t.match(detail, `the actions allowed now are ${TABLE[status].join(", ")}`, "and the allowed actions");
        t.equal(statusOf(h, id), status, "the pod is unchanged");
      }
    }
  });
}

t.test("start goes on to RUNNING, and a stopped pod costs nothing", async (t) => {
  const { h, id } = podIn("EXITED");
  const stopped = h.call("GET", `/v2/pods/${id}`).body as PodBody;
  t.equal(stopped.cost, 0);
  t.equal(stopped.runtime, null);
  act(h, id, "start");
  waitFor(h, id, "RUNNING");
  const running = h.call("GET", `/v2/pods/${id}`).body as PodBody;
  t.ok(running.cost > 0);
  t.ok(running.runtime !== null && running.startedAt !== null, "runtime metrics once RUNNING");
  t.same(schemaErrors("cpsim:Pod", running), []);
});

t.test("a locked pod cannot be stopped or restarted (409), but can be terminated", async (t) => {
  const { h, id } = podIn("RUNNING");
  t.equal(h.call("PATCH", `/v2/pods/${id}`, { body: { locked: true } }).status, 200);
  for (const action of ["stop", "restart"]) {
    const res = act(h, id, action);
    t.same(problemErrors(res, 409), [], action);
    t.match((res.body as PodBody).detail, /is locked, so it cannot be stopped or restarted; unlock it first/);
  }
  t.equal(statusOf(h, id), "RUNNING");
  t.equal(act(h, id, "terminate").status, 204);
  t.equal(statusOf(h, id), "TERMINATED");
});

t.test("starting a stopped pod whose host's GPUs were taken meanwhile: 409 with the platform's words", async (t) => {
  const { h, id } = podIn("EXITED");
  const host = h.platform.pods.find(id)!.hostIndex;
  // Someone else takes every free GPU of that host.
  const taken = h.platform.gpuStock.acquireOnHost(host, h.platform.gpuStock.free(host));
  t.ok(taken, "the host's free GPUs were taken");
  const res = act(h, id, "start");
  t.same(problemErrors(res, 409), []);
  t.match((res.body as PodBody).detail, /cannot start: not enough free GPUs on the host machine\./);
  t.equal(statusOf(h, id), "EXITED");
  h.platform.gpuStock.release(taken!);
  t.equal(act(h, id, "start").status, 200, "once they are free again it starts");
});

t.test("the body is {action} and nothing else (422); an unknown pod is 404", async (t) => {
  const { h, id } = podIn("RUNNING");
  for (const body of [{ action: "pause" }, { action: "stop", force: true }, {}, { action: 1 }, "stop", undefined]) {
    const res = h.call("POST", `/v2/pods/${id}/action`, { body });
    t.same(problemErrors(res, 422), [], JSON.stringify(body));
    t.ok(((res.body as PodBody).errors ?? []).length >= 1);
  }
  t.equal(statusOf(h, id), "RUNNING");
  t.same(problemErrors(act(h, "nosuchpod", "stop"), 404), []);
});
