import t from "tap";
import { hours, minutes, seconds } from "../../core/index.ts";
import { NO_INSTANCES_MESSAGE } from "../scheduler/index.ts";
import { A100, RTX4090 } from "../stock/test-catalog.ts";
import { POD_ID_LENGTH } from "../ids.ts";
import { podRestView, type PodCreateInput, type PodRecord, type PodStatus } from "./index.ts";
import { testPlatform } from "./test-platform.ts";

const gpuPod = (o: Partial<PodCreateInput> = {}): PodCreateInput => ({ name: "p", image: "img:1", gpu: { id: RTX4090, count: 1 }, ...o });

t.test("create: PROVISIONING at once, then STARTING, then RUNNING after tens of seconds", async (t) => {
  const p = testPlatform(1, { pods: { failureRate: 0 } });
  const seen: Array<[PodStatus | null, PodStatus, number]> = [];
  p.pods.onStatusChange((pod, from, now) => seen.push([from, pod.status, now]));
  const out = p.pods.create("acct-a", gpuPod());
  t.ok(out.ok);
  const pod = out.ok ? out.pod : (undefined as never);
  t.match(pod.id, new RegExp(`^[a-z0-9]{${POD_ID_LENGTH}}$`));
  t.equal(pod.status, "PROVISIONING");
  t.equal(p.stock.platformUsed(pod.hostIndex), 1, "GPUs taken at create");
  p.engine.runFor(minutes(10));
  t.equal(pod.status, "RUNNING");
  t.same(seen.map(([f, s]) => `${f}->${s}`), ["null->PROVISIONING", "PROVISIONING->STARTING", "STARTING->RUNNING"]);
  const runningAt = seen[2]![2];
  t.ok(runningAt > seconds(3) && runningAt < minutes(5), `running after ${runningAt / 1e6} s`);
  t.equal(pod.startedAt, runningAt);
  t.same(p.violations(), []);
});

t.test("delays average tens of seconds; the failure rate is honoured", async (t) => {
  const p = testPlatform(2, { pods: { failureRate: 0.2, maxPodsPerAccount: 1000 } });
  const ready: number[] = [];
  p.pods.onStatusChange((pod, _from, now) => {
    if (pod.status === "RUNNING" || pod.status === "ERROR") ready.push(now - pod.createdAt);
  });
  // Create in waves so capacity frees up: terminate everything after each wave.
  let errors = 0;
  let running = 0;
  for (let wave = 0; wave < 20; wave++) {
    const made: PodRecord[] = [];
    for (let i = 0; i < 20; i++) {
      const o = p.pods.create("acct-a", gpuPod({ cloud: "ALL" }));
      if (o.ok) made.push(o.pod);
    }
    p.engine.runFor(minutes(10));
    for (const pod of made) {
      if (pod.status === "ERROR") errors++;
      if (pod.status === "RUNNING") running++;
      p.pods.action("acct-a", pod.id, "terminate");
    }
    p.engine.runFor(minutes(11));
    t.equal(p.pods.size, 0, "terminated pods dropped after retention");
  }
  t.equal(errors + running, 400);
  t.ok(errors > 50 && errors < 110, `about 20% errors (${errors})`);
  const mean = ready.reduce((a, b) => a + b, 0) / ready.length / 1e6;
  t.ok(mean > 30 && mean < 60, `mean time to RUNNING/ERROR about 45 s (${mean.toFixed(1)} s)`);
  t.same(p.violations(), []);
});

t.test("failureRate 1: every start ends in ERROR, which keeps the GPUs and costs; start retries", async (t) => {
  const p = testPlatform(3, { pods: { failureRate: 1 } });
  const out = p.pods.create("acct-a", gpuPod({ gpu: { id: A100, count: 2 } }));
  const pod = out.ok ? out.pod : (undefined as never);
  p.engine.runFor(minutes(5));
  t.equal(pod.status, "ERROR");
  t.equal(p.stock.platformUsed(pod.hostIndex), 2);
  const v = podRestView(pod, p.engine.now);
  t.ok(v.cost > 0);
  t.equal(v.runtime, null);
  t.same(v.actions, ["start", "terminate"]);
  t.ok(p.pods.action("acct-a", pod.id, "start").ok);
  t.equal(pod.status, "STARTING");
  t.same(p.violations(), []);
});

t.test("no capacity is a typed outcome with the platform's message", async (t) => {
  const p = testPlatform(4);
  const r1 = p.pods.create("acct-a", gpuPod({ gpu: { id: RTX4090, count: 16 } }));
  t.same(r1, { ok: false, code: "no-capacity", status: 409, message: NO_INSTANCES_MESSAGE, reason: "no-matching-host" });
  // Fill the secure A100 hosts (8 + 4), then one more.
  t.ok(p.pods.create("acct-a", gpuPod({ gpu: { id: A100, count: 8 } })).ok);
  t.ok(p.pods.create("acct-a", gpuPod({ gpu: { id: A100, count: 4 } })).ok);
  const r2 = p.pods.create("acct-a", gpuPod({ gpu: { id: A100, count: 1 } }));
  t.equal(!r2.ok && r2.reason, "no-capacity");
  t.ok(p.pods.create("acct-a", gpuPod({ gpu: { id: A100, count: 1 }, cloud: "COMMUNITY" })).ok, "the community host still has one");
  t.same(p.violations(), []);
});

t.test("placement constraints reach the pod: data center, cloud, volume, global networking, CUDA", async (t) => {
  const p = testPlatform(5);
  const a = p.pods.create("acct-a", gpuPod({ cloud: "ALL", dataCenterIds: ["CA-MTL-1"] }));
  t.ok(a.ok && a.pod.dataCenterId === "CA-MTL-1" && a.pod.cloud === "COMMUNITY");
  const b = p.pods.create("acct-a", gpuPod({ cloud: "ALL", mounts: { network: [{ volumeId: "vol-tx", path: "/data" }] } }));
  t.ok(b.ok && b.pod.dataCenterId === "US-TX-3");
  const c = p.pods.create("acct-a", gpuPod({ cloud: "ALL", globalNetworking: true, dataCenterIds: ["CA-MTL-1", "EU-RO-1"] }));
  t.ok(c.ok && c.pod.dataCenterId === "EU-RO-1", "CA-MTL-1 has no global network");
  t.ok(c.ok && c.pod.globalAddress?.internalDns === `${c.pod.id}.cpsim.internal`);
  const d = p.pods.create("acct-a", gpuPod({ cloud: "ALL", allowedCudaVersions: ["11.8"] }));
  t.ok(d.ok && d.pod.hostId === "h4");
  const e = p.pods.create("acct-b", gpuPod({ mounts: { network: [{ volumeId: "vol-tx", path: "/data" }] } }));
  t.equal(!e.ok && e.code, "bad-request", "another account's volume");
  const f = p.pods.create("acct-a", { name: "c", image: "i", cpu: { id: "cpu3c", vcpuCount: 2 }, mounts: { persistent: { size: 10, path: "/w" } } });
  t.equal(!f.ok && f.code, "bad-request", "persistent mount on a CPU pod");
  const g = p.pods.create("acct-a", { name: "x", image: "i" });
  t.equal(!g.ok && g.code, "bad-request", "neither gpu nor cpu");
  t.same(p.violations(), []);
});

t.test("CPU pods: memory from the flavor, price per vCPU, stop/start on the host", async (t) => {
  const p = testPlatform(6, { pods: { failureRate: 0 } });
  const out = p.pods.create("acct-a", { name: "c", image: "i", cpu: { id: "cpu3m", vcpuCount: 4 }, disk: 10 });
  t.ok(out.ok);
  const pod = out.ok ? out.pod : (undefined as never);
  t.same(pod.cpu, { id: "cpu3m", vcpuCount: 4, memory: 32 });
  t.equal(pod.hostId, "c1");
  p.engine.runFor(minutes(5));
  const v = podRestView(pod, p.engine.now);
  t.same(v.cpu, { id: "cpu3m", vcpuCount: 4, memory: 32 });
  t.notOk("gpu" in v);
  t.equal(v.cost, Math.round((0.05 * 4 + (10 * 0.1) / 730) * 1e6) / 1e6);
  t.equal(v.runtime?.gpus.length, 0);
  t.ok(p.pods.action("acct-a", pod.id, "stop").ok);
  t.equal(p.cpuStock.usedVcpus(pod.hostIndex), 0);
  // Take c1's memory meanwhile: 64 GB, the pod needs 32.
  const hog = p.cpuStock.acquireOnHost(pod.hostIndex, 2, 40)!;
  const r = p.pods.action("acct-a", pod.id, "start");
  t.same(r.ok ? "ok" : [r.code, r.status], ["host-full", 409]);
  p.cpuStock.release(hog);
  t.ok(p.pods.action("acct-a", pod.id, "start").ok);
  t.same(p.violations(), []);
});

t.test("terminated pods stay visible for the retention, then are gone", async (t) => {
  const p = testPlatform(7, { pods: { terminatedRetention: minutes(10) } });
  const out = p.pods.create("acct-a", gpuPod());
  const pod = out.ok ? out.pod : (undefined as never);
  const hostIndex = pod.hostIndex;
  p.engine.runFor(minutes(2));
  t.ok(p.pods.action("acct-a", pod.id, "terminate").ok);
  t.equal(pod.status, "TERMINATED");
  t.equal(p.stock.platformUsed(hostIndex), 0);
  t.same(podRestView(pod, p.engine.now).globalNetworking, { enabled: false });
  p.engine.runFor(minutes(9));
  t.equal(p.pods.get("acct-a", pod.id), pod);
  t.equal(p.pods.list("acct-a").length, 1);
  p.engine.runFor(minutes(2));
  t.equal(p.pods.get("acct-a", pod.id), undefined);
  t.same(p.pods.list("acct-a"), []);
  const r = p.pods.action("acct-a", pod.id, "start");
  t.same(r.ok ? "ok" : [r.code, r.status], ["not-found", 404]);
  t.equal(p.engine.pending, 0, "nothing left scheduled");
});

t.test("accounts see only their own pods; limits are typed outcomes", async (t) => {
  const p = testPlatform(8, { pods: { maxPodsPerAccount: 2 } });
  const a = p.pods.create("acct-a", gpuPod());
  t.ok(a.ok);
  t.ok(p.pods.create("acct-a", gpuPod()).ok);
  const third = p.pods.create("acct-a", gpuPod());
  t.same(third.ok ? "ok" : [third.code, third.status], ["pod-limit", 409]);
  t.ok(p.pods.create("acct-b", gpuPod()).ok);
  t.equal(p.pods.list("acct-a").length, 2);
  t.equal(p.pods.list("acct-b").length, 1);
  if (a.ok) {
    t.equal(p.pods.get("acct-b", a.pod.id), undefined);
    const r = p.pods.action("acct-b", a.pod.id, "stop");
    t.equal(!r.ok && r.code, "not-found");
  }
  t.same(p.pods.list("nobody"), []);
});

t.test("stop of a pod keeps it tied to its host; the host runs long", async (t) => {
  const p = testPlatform(9, { pods: { failureRate: 0 } });
  const out = p.pods.create("acct-a", gpuPod({ gpu: { id: A100, count: 4 } }));
  const pod = out.ok ? out.pod : (undefined as never);
  p.engine.runFor(hours(1));
  const host = pod.hostId;
  t.ok(p.pods.action("acct-a", pod.id, "stop").ok);
  t.equal(pod.status, "EXITED");
  t.equal(pod.hostId, host);
  p.engine.runFor(hours(1));
  t.ok(p.pods.action("acct-a", pod.id, "start").ok);
  t.equal(pod.hostId, host);
  t.equal(p.stock.platformUsed(pod.hostIndex), 4);
});
