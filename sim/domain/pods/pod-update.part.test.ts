import t from "tap";
import { minutes } from "../../core/index.ts";
import { A100, MI300X, RTX4090 } from "../stock/test-catalog.ts";
import { podRestView, type PodCreateInput, type PodRecord } from "./index.ts";
import { testPlatform } from "./test-platform.ts";

function running(input: Partial<PodCreateInput> = {}) {
  const p = testPlatform(11, { pods: { failureRate: 0 } });
  const out = p.pods.create("acct-a", { name: "x", image: "i:1", gpu: { id: RTX4090 }, cloud: "ALL", ...input });
  if (!out.ok) throw new Error(out.message);
  p.engine.runFor(minutes(5));
  return { p, pod: out.pod as PodRecord };
}

t.test("name and locked change without a reset; container fields reset a running pod", async (t) => {
  const { p, pod } = running();
  t.ok(p.pods.update("acct-a", pod.id, { name: "renamed", locked: true }).ok);
  t.equal(pod.name, "renamed");
  t.equal(pod.locked, true);
  t.equal(pod.status, "RUNNING");
  t.ok(p.pods.update("acct-a", pod.id, { image: "i:1", env: {}, ports: [] }).ok, "same values");
  t.equal(pod.status, "RUNNING", "no change, no reset");
  t.ok(p.pods.update("acct-a", pod.id, { image: "i:2", args: "--x", disk: 80, ports: ["8888/http"], env: { A: "1" }, registry: "reg-1" }).ok);
  t.equal(pod.status, "STARTING", "a container change resets the pod");
  const v = podRestView(pod, p.engine.now);
  t.same([v.image, v.args, v.disk, v.ports, v.env, v.registry], ["i:2", "--x", 80, ["8888/http"], { A: "1" }, "reg-1"]);
  p.engine.runFor(minutes(2));
  t.equal(pod.status, "RUNNING");
  t.same(p.violations(), []);
});

t.test("an EXITED pod takes updates without starting", async (t) => {
  const { p, pod } = running();
  p.pods.action("acct-a", pod.id, "stop");
  t.ok(p.pods.update("acct-a", pod.id, { image: "new" }).ok);
  t.equal(pod.status, "EXITED");
  t.equal(pod.image, "new");
});

t.test("the five mount update rules", async (t) => {
  const persistent = running({ mounts: { persistent: { size: 20, path: "/workspace" } } });
  const network = running({ mounts: { network: [{ volumeId: "vol-tx", path: "/data" }] } });
  const bare = running();
  const code = (r: ReturnType<typeof bare.p.pods.update>) => (r.ok ? "ok" : r.code);

  // 1. omitted or empty: unchanged
  t.equal(code(persistent.p.pods.update("acct-a", persistent.pod.id, {})), "ok");
  t.equal(code(persistent.p.pods.update("acct-a", persistent.pod.id, { mounts: {} })), "ok");
  t.same(persistent.pod.mounts, { persistent: { size: 20, path: "/workspace" } });
  t.equal(persistent.pod.status, "RUNNING");
  // 2. an explicit empty network array
  t.equal(code(network.p.pods.update("acct-a", network.pod.id, { mounts: { network: [] } })), "bad-request");
  // 3. the kind is fixed
  t.equal(code(network.p.pods.update("acct-a", network.pod.id, { mounts: { persistent: { size: 20, path: "/w" } } })), "bad-request");
  t.equal(code(persistent.p.pods.update("acct-a", persistent.pod.id, { mounts: { network: [{ volumeId: "vol-tx", path: "/d" }] } })), "bad-request");
  t.equal(code(bare.p.pods.update("acct-a", bare.pod.id, { mounts: { persistent: { size: 20, path: "/w" } } })), "bad-request");
  // 4. another volumeId
  t.equal(code(network.p.pods.update("acct-a", network.pod.id, { mounts: { network: [{ volumeId: "vol-ca", path: "/data" }] } })), "bad-request");
  // 5. partial entries
  t.equal(code(network.p.pods.update("acct-a", network.pod.id, { mounts: { network: [{ path: "/x" } as never] } })), "bad-request");
  t.equal(code(persistent.p.pods.update("acct-a", persistent.pod.id, { mounts: { persistent: { path: "/x" } as never } })), "bad-request");
  // refusals changed nothing
  t.same(network.pod.mounts, { network: [{ volumeId: "vol-tx", path: "/data" }] });
  // what may change
  t.equal(code(network.p.pods.update("acct-a", network.pod.id, { mounts: { network: [{ volumeId: "vol-tx", path: "/mnt" }] } })), "ok");
  t.same(network.pod.mounts, { network: [{ volumeId: "vol-tx", path: "/mnt" }] });
  t.equal(code(persistent.p.pods.update("acct-a", persistent.pod.id, { mounts: { persistent: { size: 40, path: "/w" } } })), "ok");
  t.same(persistent.pod.mounts, { persistent: { size: 40, path: "/w" } });
  t.equal(persistent.pod.status, "STARTING", "a mount change resets the pod");
  for (const x of [persistent, network, bare]) t.same(x.p.violations(), []);
});

t.test("a refused update changes nothing at all", async (t) => {
  const { p, pod } = running({ mounts: { network: [{ volumeId: "vol-tx", path: "/data" }] } });
  const r = p.pods.update("acct-a", pod.id, { name: "changed", image: "changed", mounts: { network: [] } });
  t.notOk(r.ok);
  t.equal(pod.name, "x");
  t.equal(pod.image, "i:1");
});

t.test("globalNetworking on and off", async (t) => {
  const { p, pod } = running({ dataCenterIds: ["US-TX-3"] });
  t.ok(p.pods.update("acct-a", pod.id, { globalNetworking: true }).ok);
  const on = podRestView(pod, p.engine.now).globalNetworking;
  t.equal(on.enabled, true);
  t.match(on.ip, /^10\.\d+\.\d+\.\d+$/);
  t.equal(on.internalDns, `${pod.id}.cpsim.internal`);
  t.ok(p.pods.update("acct-a", pod.id, { globalNetworking: false }).ok);
  t.same(podRestView(pod, p.engine.now).globalNetworking, { enabled: false });

  const ca = running({ dataCenterIds: ["CA-MTL-1"] });
  const r = ca.p.pods.update("acct-a", ca.pod.id, { globalNetworking: true });
  t.equal(!r.ok && r.code, "bad-request", "CA-MTL-1 has no global network");
  const amd = running({ gpu: { id: MI300X } });
  t.equal(amd.p.pods.update("acct-a", amd.pod.id, { globalNetworking: true }).ok, false, "AMD GPU");
  const cpu = testPlatform(12);
  const c = cpu.pods.create("acct-a", { name: "c", image: "i", cpu: { id: "cpu3c", vcpuCount: 2 } });
  t.ok(c.ok && !cpu.pods.update("acct-a", c.pod.id, { globalNetworking: true }).ok, "CPU pod");
  t.same(p.violations(), []);
});

t.test("updates of unknown or terminated pods", async (t) => {
  const { p, pod } = running({ gpu: { id: A100 } });
  t.equal(p.pods.update("acct-a", "nope", { name: "n" }).ok, false);
  p.pods.action("acct-a", pod.id, "terminate");
  const r = p.pods.update("acct-a", pod.id, { name: "n" });
  t.same(r.ok ? "ok" : [r.code, r.status], ["not-allowed", 409]);
});
