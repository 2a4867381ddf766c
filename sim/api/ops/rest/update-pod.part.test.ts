// updatePod (PATCH): the five mount update rules against pods of each mount kind, the other
// mutable fields, and the refusals that need the pod (TERMINATED, CPU global networking).
import t from "tap";
import { seconds } from "../../../core/index.ts";
import { cpuPodBody, gpuPodBody, harness, problemErrors, schemaErrors, type Harness } from "./test-api.ts";

type PodBody = Record<string, any>;

const NETWORK = { network: [{ volumeId: "vol-alpha-ustx3", path: "/data" }] };
const PERSISTENT = { persistent: { size: 20, path: "/workspace" } };

/** A fresh platform with one pod of each mount kind. */
function setup(): { h: Harness; none: string; persistent: string; network: string; cpu: string } {
  const h = harness();
  const create = (body: Record<string, unknown>) => {
    const res = h.call("POST", "/v2/pods", { body });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return (res.body as PodBody).id as string;
  };
  return {
    h,
    none: create(gpuPodBody({ name: "none" })),
    persistent: create(gpuPodBody({ name: "persistent", mounts: PERSISTENT })),
    network: create(gpuPodBody({ name: "network", mounts: NETWORK })),
    cpu: create(cpuPodBody({ name: "cpu" })),
  };
}

function patch(h: Harness, id: string, body: unknown) {
  return h.call("PATCH", `/v2/pods/${id}`, { body });
}

t.test("rule 1: omitting mounts or sending {} leaves the mount unchanged (200)", async (t) => {
  const { h, none, persistent, network } = setup();
  for (const [id, mounts] of [[none, {}], [persistent, PERSISTENT], [network, NETWORK]] as const) {
    for (const body of [{ name: "renamed" }, { mounts: {} }, {}]) {
      const res = patch(h, id, body);
      t.equal(res.status, 200, JSON.stringify(res.body));
      t.same(schemaErrors("cpsim:Pod", res.body), []);
      t.same((res.body as PodBody).mounts, mounts, `${JSON.stringify(body)} keeps ${JSON.stringify(mounts)}`);
    }
  }
});

t.test("rule 2: an explicit empty network array is 400", async (t) => {
  const { h, none, persistent, network } = setup();
  for (const id of [none, persistent, network]) {
    const res = patch(h, id, { mounts: { network: [] } });
    t.same(problemErrors(res, 400), []);
    t.match((res.body as PodBody).errors.join(" "), /mounts\.network is an empty array/);
  }
  t.same((h.call("GET", `/v2/pods/${network}`).body as PodBody).mounts, NETWORK, "unchanged");
});

t.test("rule 3: the mount kind is fixed at create (400)", async (t) => {
  const { h, none, persistent, network } = setup();
  const cases: Array<[string, string, unknown, RegExp]> = [
    ["persistent on a network pod", network, { mounts: PERSISTENT }, /created with a network mount, and the mount kind cannot change/],
    ["network on a persistent pod", persistent, { mounts: NETWORK }, /created with a persistent mount, and the mount kind cannot change/],
    ["persistent on a pod without mounts", none, { mounts: PERSISTENT }, /created without mounts, and the mount kind cannot change/],
    ["network on a pod without mounts", none, { mounts: NETWORK }, /created without mounts, and the mount kind cannot change/],
  ];
  for (const [name, id, body, words] of cases) {
    const res = patch(h, id, body);
    t.same(problemErrors(res, 400), [], name);
    t.match((res.body as PodBody).errors.join(" "), words, name);
  }
  t.same((h.call("GET", `/v2/pods/${none}`).body as PodBody).mounts, {}, "unchanged");
});

t.test("rule 4: a different volumeId on a network mount is 400", async (t) => {
  const { h, network } = setup();
  const res = patch(h, network, { mounts: { network: [{ volumeId: "vol-alpha-euro1", path: "/data" }] } });
  t.same(problemErrors(res, 400), []);
  t.match((res.body as PodBody).errors.join(" "), /volumeId is "vol-alpha-euro1", but the pod's network volume is "vol-alpha-ustx3" and cannot change/);
});

t.test("rule 5: partial mount entries are 422", async (t) => {
  const { h, persistent, network } = setup();
  for (const [id, body, words] of [
    [persistent, { mounts: { persistent: { size: 30 } } }, /mounts\.persistent\.path is missing/],
    [persistent, { mounts: { persistent: { path: "/x" } } }, /mounts\.persistent\.size is missing/],
    [network, { mounts: { network: [{ path: "/x" }] } }, /mounts\.network\[0\]\.volumeId is missing/],
    [network, { mounts: { network: [{ volumeId: "vol-alpha-ustx3" }] } }, /mounts\.network\[0\]\.path is missing/],
  ] as const) {
    const res = patch(h, id, body);
    t.same(problemErrors(res, 422), [], JSON.stringify(body));
    t.match((res.body as PodBody).errors.join(" "), words);
  }
});

t.test("what may change: the persistent mount's size and path, the network mount's path, the container fields", async (t) => {
  const { h, persistent, network } = setup();
  const p = patch(h, persistent, { mounts: { persistent: { size: 40, path: "/vol" } }, locked: true, ports: ["8888/http"] });
  t.equal(p.status, 200);
  t.same((p.body as PodBody).mounts, { persistent: { size: 40, path: "/vol" } });
  t.equal((p.body as PodBody).locked, true);
  t.same((p.body as PodBody).ports, ["8888/http"]);
  const n = patch(h, network, { mounts: { network: [{ volumeId: "vol-alpha-ustx3", path: "/new" }] }, env: { K: "v" }, name: "n2" });
  t.equal(n.status, 200);
  t.same((n.body as PodBody).mounts, { network: [{ volumeId: "vol-alpha-ustx3", path: "/new" }] });
  t.same((n.body as PodBody).env, { K: "v" });
  t.equal((n.body as PodBody).name, "n2");
  t.same(schemaErrors("cpsim:Pod", n.body), []);
});

t.test("a container change resets a RUNNING pod to STARTING; a rename does not", async (t) => {
  const { h, none } = setup();
  h.advance(seconds(600));
  t.equal((h.call("GET", `/v2/pods/${none}`).body as PodBody).status, "RUNNING");
  t.equal((patch(h, none, { name: "still running" }).body as PodBody).status, "RUNNING");
  t.equal((patch(h, none, { image: "ubuntu:24.04" }).body as PodBody).status, "STARTING");
});

t.test("schema failures, CPU-only refusals, unknown pods and TERMINATED pods", async (t) => {
  const { h, cpu, none } = setup();
  t.same(problemErrors(patch(h, none, { cloud: "SECURE" }), 422), [], "unknown property");
  t.same(problemErrors(patch(h, none, { locked: "yes" }), 422), [], "wrong type");
  t.same(problemErrors(patch(h, none, "rename"), 422), [], "not an object");
  t.same(problemErrors(patch(h, cpu, { mounts: PERSISTENT }), 400), [], "persistent on a CPU pod");
  const gn = patch(h, cpu, { globalNetworking: true });
  t.same(problemErrors(gn, 400), []);
  t.match((gn.body as PodBody).errors[0], /not available on CPU pods/);
  t.same(problemErrors(patch(h, "nosuchpod", { name: "x" }), 404), []);
  t.equal(h.call("DELETE", `/v2/pods/${none}`).status, 204);
  const dead = patch(h, none, { name: "x" });
  t.same(problemErrors(dead, 409), []);
  t.match((dead.body as PodBody).detail, /is TERMINATED and can no longer be changed/);
});
