import t from "tap";
import fc from "fast-check";
import { minutes, seconds } from "../../core/index.ts";
import { createValidator } from "../../api/schemas/index.ts";
import { A100, MI300X } from "../stock/test-catalog.ts";
import { podGraphqlView, podRestView, statusChangeText, type PodRecord } from "./index.ts";
import { testPlatform } from "./test-platform.ts";

const validator = createValidator();

function setup() {
  const p = testPlatform(21, { pods: { failureRate: 0 } });
  const mk = (o: Parameters<typeof p.pods.create>[1]) => {
    const r = p.pods.create("acct-a", o);
    if (!r.ok) throw new Error(r.message);
    return r.pod;
  };
  const gpu = mk({
    name: "trainer",
    image: "repo/img:1",
    gpu: { id: A100, count: 2 },
    ports: ["8888/http", "22/tcp"],
    env: { A: "1", B: "x=y" },
    mounts: { persistent: { size: 20, path: "/workspace" } },
    disk: 30,
    globalNetworking: true,
    template: "tpl-1",
  });
  const cpu = mk({ name: "cpu", image: "i", cpu: { id: "cpu3c", vcpuCount: 4 }, mounts: { network: [{ volumeId: "vol-tx", path: "/data" }] } });
  const amd = mk({ name: "amd", image: "i", gpu: { id: MI300X } });
  return { p, pods: [gpu, cpu, amd] as PodRecord[] };
}

t.test("REST and GraphQL views validate against sim/api's schemas in every status", async (t) => {
  const { p, pods } = setup();
  const check = (label: string) => {
    for (const pod of pods) {
      const rest = validator.validate("cpsim:Pod", podRestView(pod, p.engine.now));
      t.same(rest.errors, [], `${label} ${pod.name} ${pod.status}: Pod`);
      const gql = validator.validate("cpsim:GraphqlPod", podGraphqlView(pod, p.engine.now));
      t.same(gql.errors, [], `${label} ${pod.name} ${pod.status}: GraphqlPod`);
    }
  };
  check("provisioning");
  p.engine.runFor(seconds(20));
  check("mixed");
  p.engine.runFor(minutes(5));
  check("running");
  for (const pod of pods) p.pods.action("acct-a", pod.id, "stop");
  check("exited");
  for (const pod of pods) p.pods.action("acct-a", pod.id, "terminate");
  check("terminated");
});

t.test("REST view fields", async (t) => {
  const { p, pods } = setup();
  const [gpu, cpu] = pods as [PodRecord, PodRecord];
  p.engine.runFor(minutes(5));
  const now = p.engine.now;
  const v = podRestView(gpu, now);
  t.equal(v.status, "RUNNING");
  t.same(v.gpu, { id: A100, count: 2 });
  t.notOk("cpu" in v);
  t.equal(v.cloud, "SECURE");
  t.equal(v.dataCenterId, "US-TX-3");
  t.equal(v.template, "tpl-1");
  t.equal(v.cost, Math.round((1.64 * 2 + (50 * 0.1) / 730) * 1e6) / 1e6, "2 x the secure price + 50 GB storage");
  t.same(v.globalNetworking, { enabled: true, ip: gpu.globalAddress!.ip, internalDns: `${gpu.id}.cpsim.internal` });
  t.equal(v.createdAt, "2026-01-01T00:00:00.000Z");
  t.equal(v.startedAt, new Date(Date.UTC(2026, 0, 1) + gpu.startedAt! / 1000).toISOString());
  const rt = v.runtime!;
  t.equal(rt.gpus.length, 2);
  t.equal(rt.uptime, Math.floor((now - gpu.startedAt!) / 1e6));
  t.same(rt.ports.map((x) => [x.private, x.type]), [[8888, "http"], [22, "tcp"]]);
  t.match(rt.ports[0]!.ip, /^100\.65\./);
  t.equal(podRestView(cpu, now).cpu?.memory, 8);
  t.same(podRestView(cpu, now).mounts, { network: [{ volumeId: "vol-tx", path: "/data" }] });
  // Views are copies.
  v.env.A = "changed";
  v.mounts.persistent!.size = 1;
  t.equal(gpu.env.A, "1");
  t.equal(gpu.mounts.persistent?.size, 20);
});

t.test("GraphQL view fields", async (t) => {
  const { p, pods } = setup();
  const [gpu, cpu] = pods as [PodRecord, PodRecord];
  const early = podGraphqlView(gpu, p.engine.now);
  t.equal(early.desiredStatus, "RUNNING", "desired while provisioning");
  t.equal(early.runtime, null);
  t.equal(early.uptimeSeconds, 0);
  p.engine.runFor(minutes(5));
  const g = podGraphqlView(gpu, p.engine.now);
  t.same(g.env, ["A=1", "B=x=y"]);
  t.equal(g.imageName, "repo/img:1");
  t.match(g.machineId, /^[a-z0-9]{12}$/);
  t.match(g.machine.podHostId, new RegExp(`^${gpu.id}-[0-9a-f]{8}$`));
  t.equal(g.machine.gpuDisplayName, "A100 80GB PCIe");
  t.equal(g.gpuCount, 2);
  t.equal(g.vcpuCount, 32, "host's per-GPU share x 2");
  t.equal(g.memoryInGb, 124);
  t.equal(g.containerDiskInGb, 30);
  t.equal(g.volumeInGb, 20);
  t.equal(g.volumeMountPath, "/workspace");
  t.equal(g.port, 8888);
  t.equal(g.ports, "8888/http,22/tcp");
  t.equal(g.podType, "RESERVED");
  t.match(g.dockerId, /^[0-9a-f]{12}$/);
  t.equal(g.costPerHr, podRestView(gpu, p.engine.now).cost);
  t.equal(g.lastStatusChange, statusChangeText("Rented by User", Date.UTC(2026, 0, 1)));
  t.equal(g.lastStatusChange, "Rented by User: Thu Jan 01 2026 00:00:00 GMT+0000 (Coordinated Universal Time)");
  t.equal(g.runtime!.gpus.length, 2);
  t.match(g.runtime!.gpus[0]!.id, /^GPU-[0-9a-f]{8}-/);
  t.same(g.runtime!.ports.map((x) => [x.privatePort, x.isIpPublic]), [[8888, false], [22, true]]);
  t.equal(g.uptimeSeconds, g.runtime!.uptimeInSeconds);
  const c = podGraphqlView(cpu, p.engine.now);
  t.same([c.gpuCount, c.vcpuCount, c.memoryInGb, c.machine.gpuDisplayName, c.volumeInGb, c.volumeMountPath], [0, 4, 8, null, 0, "/data"]);
  p.pods.action("acct-a", gpu.id, "stop");
  const stopped = podGraphqlView(gpu, p.engine.now);
  t.equal(stopped.desiredStatus, "EXITED");
  t.equal(stopped.costPerHr, 0);
  t.equal(stopped.dockerId, null);
  t.match(stopped.lastStatusChange, /^Exited by User: Thu Jan 01 2026 00:05:00 /);
  p.pods.action("acct-a", gpu.id, "terminate");
  t.equal(podGraphqlView(gpu, p.engine.now).desiredStatus, "TERMINATED");
});

t.test("runtime utilization: plausible, constant within a bucket, varying across buckets, a pure read", async (t) => {
  const { p, pods } = setup();
  p.engine.runFor(minutes(5));
  const gpu = pods[0]!;
  const base = p.engine.now;
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 3_600_000_000 }), (dt) => {
      const v = podRestView(gpu, base + dt).runtime!;
      const all = [...v.gpus.flatMap((g) => [g.util, g.memoryUtil]), v.cpu.util, v.memory.util];
      return all.every((x) => Number.isInteger(x) && x >= 0 && x <= 100) && v.uptime >= 0;
    }),
  );
  const bucketStart = Math.ceil(base / 10_000_000) * 10_000_000;
  t.same(podRestView(gpu, bucketStart).runtime!.gpus, podRestView(gpu, bucketStart + 9_999_999).runtime!.gpus, "constant within a bucket");
  const distinct = new Set<number>();
  for (let i = 0; i < 50; i++) distinct.add(podRestView(gpu, bucketStart + i * 10_000_000).runtime!.gpus[0]!.util);
  t.ok(distinct.size > 5, `varies across buckets (${distinct.size} values)`);
  t.same(podRestView(gpu, base), podRestView(gpu, base), "same time, same view");
});
