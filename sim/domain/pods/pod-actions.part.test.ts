import t from "tap";
import { minutes, seconds } from "../../core/index.ts";
import { A100 } from "../stock/test-catalog.ts";
import { HOST_FULL_GPU_MESSAGE, POD_ACTIONS, POD_STATUSES, podRestView, type PodAction, type PodRecord, type PodStatus } from "./index.ts";
import { testPlatform, type TestPlatform } from "./test-platform.ts";

/** choices.md, written out again. */
const TABLE: Record<PodStatus, PodAction[]> = {
  PROVISIONING: ["stop", "terminate"],
  STARTING: ["stop", "terminate"],
  RUNNING: ["stop", "restart", "terminate"],
  EXITED: ["start", "terminate"],
  ERROR: ["start", "terminate"],
  TERMINATED: [],
};

/** A fresh platform with one pod brought to `status`. */
function podIn(status: PodStatus, locked = false): { p: TestPlatform; pod: PodRecord } {
  const p = testPlatform(`${status}-${locked}`, {
    pods: { failureRate: status === "ERROR" ? 1 : 0, provisioningDelay: { mean: seconds(10), cv: 0 }, startingDelay: { mean: seconds(20), cv: 0 } },
  });
  const out = p.pods.create("acct-a", { name: "x", image: "i", gpu: { id: A100, count: 2 } });
  if (!out.ok) throw new Error("create failed");
  const pod = out.pod;
  if (status === "STARTING") p.engine.runFor(seconds(15));
  if (status === "RUNNING" || status === "ERROR" || status === "EXITED") p.engine.runFor(minutes(1));
  if (status === "EXITED") p.pods.action("acct-a", pod.id, "stop");
  if (status === "TERMINATED") p.pods.action("acct-a", pod.id, "terminate");
  if (locked) p.pods.update("acct-a", pod.id, { locked: true });
  if (pod.status !== status) throw new Error(`could not reach ${status}: ${pod.status}`);
  return { p, pod };
}

t.test("every action in every status follows the table", async (t) => {
  for (const status of POD_STATUSES) {
    for (const action of POD_ACTIONS) {
      const { p, pod } = podIn(status);
      t.same(podRestView(pod, p.engine.now).actions, TABLE[status], `${status} lists its actions`);
      const r = p.pods.action("acct-a", pod.id, action);
      const allowed = TABLE[status].includes(action);
      t.equal(r.ok, allowed, `${action} in ${status}: ${allowed ? "allowed" : "409"}`);
      if (!r.ok) {
        t.equal(r.status, 409);
        t.equal(r.code, "not-allowed");
        t.equal(pod.status, status, "a refused action changes nothing");
      } else {
        const expected: Record<PodAction, PodStatus> = { start: "STARTING", stop: "EXITED", restart: "STARTING", terminate: "TERMINATED" };
        t.equal(pod.status, expected[action], `${action} from ${status} -> ${expected[action]}`);
      }
      t.same(p.violations(), [], `invariants after ${action} in ${status}`);
    }
  }
});

t.test("locked pods cannot be stopped or restarted, but can be terminated", async (t) => {
  for (const status of ["PROVISIONING", "STARTING", "RUNNING"] as const) {
    for (const action of ["stop", "restart"] as const) {
      if (!TABLE[status].includes(action)) continue;
      const { p, pod } = podIn(status, true);
      const r = p.pods.action("acct-a", pod.id, action);
      t.same(r.ok ? "ok" : [r.code, r.status], ["locked", 409], `${action} of a locked ${status} pod`);
      t.equal(pod.status, status);
    }
    const { p, pod } = podIn(status, true);
    t.ok(p.pods.action("acct-a", pod.id, "terminate").ok, `terminate of a locked ${status} pod`);
  }
  // Unlocking lifts it.
  const { p, pod } = podIn("RUNNING", true);
  p.pods.update("acct-a", pod.id, { locked: false });
  t.ok(p.pods.action("acct-a", pod.id, "stop").ok);
});

t.test("stop releases the GPUs; start fails when the host's GPUs were taken meanwhile", async (t) => {
  const { p, pod } = podIn("RUNNING");
  const h = pod.hostIndex;
  const before = p.stock.free(h);
  t.ok(p.pods.action("acct-a", pod.id, "stop").ok);
  t.equal(p.stock.free(h), before + 2, "GPUs back in stock");
  t.equal(podRestView(pod, p.engine.now).cost, 0);
  // Someone else takes all but one GPU of that host.
  const taken = p.stock.acquireOnHost(h, p.stock.free(h) - 1)!;
  const r = p.pods.action("acct-a", pod.id, "start");
  t.same(r.ok ? "ok" : { code: r.code, status: r.status, message: r.message }, { code: "host-full", status: 409, message: HOST_FULL_GPU_MESSAGE });
  t.equal(pod.status, "EXITED");
  t.same(p.violations(), []);
  // Other hosts of the type have room, but the pod does not move.
  t.ok(p.stock.freeGpus(A100) >= 2);
  p.stock.release(taken);
  t.ok(p.pods.action("acct-a", pod.id, "start").ok);
  t.equal(pod.status, "STARTING");
  p.engine.runFor(minutes(1));
  t.equal(pod.status, "RUNNING");
  t.same(p.violations(), []);
});

t.test("start with another GPU count (podResume gpuCount) resizes on the same host", async (t) => {
  const { p, pod } = podIn("EXITED");
  const host = p.catalog.hosts[pod.hostIndex]!;
  const r = p.pods.action("acct-a", pod.id, "start", { gpuCount: 3 });
  t.ok(r.ok);
  t.equal(pod.gpu?.count, 3);
  t.equal(p.stock.platformUsed(pod.hostIndex), 3);
  t.equal(pod.hostId, host.id);
  t.equal(pod.computePricePerHour, 1.64 * 3);
  t.same(p.violations(), []);
  const { p: p2, pod: pod2 } = podIn("EXITED");
  const r2 = p2.pods.action("acct-a", pod2.id, "start", { gpuCount: 64 });
  t.equal(!r2.ok && r2.code, "host-full");
});

t.test("restart keeps the GPUs and starts a new container", async (t) => {
  const { p, pod } = podIn("RUNNING");
  const startsBefore = pod.starts;
  t.ok(p.pods.action("acct-a", pod.id, "restart").ok);
  t.equal(pod.status, "STARTING");
  t.equal(pod.starts, startsBefore + 1);
  t.equal(p.stock.platformUsed(pod.hostIndex), 2);
  t.equal(podRestView(pod, p.engine.now).runtime, null);
  p.engine.runFor(minutes(1));
  t.equal(pod.status, "RUNNING");
});

t.test("stop during PROVISIONING cancels the pending transition", async (t) => {
  const { p, pod } = podIn("PROVISIONING");
  t.ok(p.pods.action("acct-a", pod.id, "stop").ok);
  p.engine.runFor(minutes(5));
  t.equal(pod.status, "EXITED");
  t.equal(p.engine.pending, 0);
});
