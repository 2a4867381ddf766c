// Shadow mode with two real servers on loopback: a planted difference the spec fixes is found, differences only where the spec is open are not, and a slow or dead shadow neither delays nor changes the client's traffic.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import t, { type Test } from "tap";
import { conventionsFrom } from "../../sim/conventions/index.ts";
import { defectsNamed } from "../../sim/defects/index.ts";
import { startEmulator, type EmulatorHandle } from "../../sim/http/index.ts";
import type { ShadowDifferenceRecord } from "../../reports/conformance-report.ts";
import { startProxy, type ProxyHandle } from "./proxy.ts";
import type { ProxyOptions } from "./options.ts";
import { describe } from "../test-support/proxy/setup.ts";
import type { Finding } from "../passive/passive-judge.ts";

async function emulator(t: Test, extra: Parameters<typeof startEmulator>[0] = {}): Promise<EmulatorHandle> {
  const e = await startEmulator({ clock: "real", speed: 1, seed: 7, logger: false, ...extra });
  t.teardown(() => e.close());
  return e;
}

async function proxied(t: Test, target: EmulatorHandle, shadow: string, opts: Partial<ProxyOptions> = {}) {
  const findings: Finding[] = [];
  const differences: ShadowDifferenceRecord[] = [];
  const proxy = await startProxy(
    { target: target.baseUrl, reportDir: t.testdir(), shadow, ...opts },
    { onFinding: (f) => findings.push(f), onShadowDifference: (d) => differences.push(d) },
  );
  t.teardown(() => proxy.stop().then(() => undefined));
  return { proxy, findings, differences, key: target.apiKeys.find((k) => k.access === "full")!.key };
}

/** A scripted client: catalog and pods by REST, a job run and read to its end, a runsync, health. Answers what it got. */
async function traffic(proxy: ProxyHandle, key: string) {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(url, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
  };
  const rest = proxy.baseUrl;
  const jobs = `${proxy.serverlessUrl}/v2/conformance`;
  const got: Record<string, { status: number; json: Record<string, unknown> | undefined }> = {};
  got.gpus = await call("GET", `${rest}/v2/catalog/gpus`);
  got.created = await call("POST", `${rest}/v2/pods`, { name: "shadowed", image: "ubuntu:22.04", cpu: { id: "cpu3c", vcpuCount: 2 } });
  const podId = got.created.json?.id as string;
  got.pod = await call("GET", `${rest}/v2/pods/${podId}`);
  got.pods = await call("GET", `${rest}/v2/pods`);
  got.run = await call("POST", `${jobs}/run`, { input: { op: "echo", n: 1 } });
  const jobId = got.run.json?.id as string;
  got.status = await call("GET", `${jobs}/status/${jobId}`);
  for (let i = 0; i < 3000 && got.status.json?.status !== "COMPLETED"; i++) {
    await new Promise((r) => setTimeout(r, 20));
    got.status = await call("GET", `${jobs}/status/${jobId}`);
  }
  got.runsync = await call("POST", `${jobs}/runsync?wait=60000`, { input: { op: "echo", n: 2 } });
  got.health = await call("GET", `${jobs}/health`);
  // One read more of the finished job: by now its run has reached the shadow too.
  await proxy.shadow!.settled();
  got.again = await call("GET", `${jobs}/status/${jobId}`);
  await proxy.shadow!.settled();
  return got;
}

t.test("a shadow with planted defects the spec fixes: each is found, the client sees the target's answers only", async (t) => {
  const target = await emulator(t);
  const shadow = await emulator(t, { defects: defectsNamed(["health-counters-strings", "create-starts-running", "completed-without-output"]) });
  const s = await proxied(t, target, shadow.baseUrl, { shadowWrites: true });
  const got = await traffic(s.proxy, s.key);
  t.equal(got.created.json?.status, "PROVISIONING", "the client got the target's created pod");
  t.equal(typeof (got.health.json?.jobs as Record<string, unknown>)?.completed, "number", "and the target's health counters");
  const { report } = await s.proxy.stop();
  t.same(describe(s.findings.filter((f) => f.side === "target")), [], "the target itself has no finding");
  const rules = new Set(s.differences.map((d) => d.rule));
  for (const rule of ["jobs.health.shape", "pods.create.status-provisioning", "jobs.completed-output"]) t.ok(rules.has(rule), `${rule} differs; found ${[...rules].join(", ") || "nothing"}`);
  for (const d of s.differences) {
    t.equal(d.target, "keeps it", `${d.rule}: the target keeps it`);
    t.not(d.shadow, "keeps it", `${d.rule}: the shadow breaks it`);
  }
  const rec = report.shadow!;
  t.ok(rec, "the report has a shadow section");
  t.same(rec.rules.map((r) => r.id).sort(), [...rules].sort(), "by rule in the report");
  t.equal(rec.skipped.unknownObject, 0, "every pod and job the client named was mapped to the shadow's own id");
  t.ok(rec.compared >= 8, `${rec.compared} exchanges compared`);
});

t.test("a shadow that differs only where the spec is open (ids, times, member order, extra fields): no difference", async (t) => {
  const target = await emulator(t);
  const conventions = conventionsFrom({ jobIds: "prefix-job_", times: "z-seconds", memberOrder: "reversed", extraFields: "links", headerCase: "upper" });
  const shadow = await emulator(t, { conventions, seed: 99 });
  const s = await proxied(t, target, shadow.baseUrl, { shadowWrites: true });
  await traffic(s.proxy, s.key);
  const { report } = await s.proxy.stop();
  t.same(s.differences, [], "no difference");
  const rec = report.shadow!;
  t.equal(rec.skipped.unknownObject, 0, "job ids of another format mapped");
  t.ok(rec.compared >= 8, `${rec.compared} exchanges compared`);
  t.equal(rec.dropped.timeout + rec.dropped.error + rec.dropped.queueFull, 0, "nothing dropped");
});

t.test("without --shadow-writes: writes are not sent, and a read of what they made is not compared", async (t) => {
  const target = await emulator(t);
  const shadow = await emulator(t, { defects: defectsNamed(["health-counters-strings"]) });
  const s = await proxied(t, target, shadow.baseUrl);
  await traffic(s.proxy, s.key);
  const { report } = await s.proxy.stop();
  const rec = report.shadow!;
  t.equal(rec.skipped.writes, 3, "create, run and runsync stayed at the target");
  t.ok(rec.skipped.unknownObject >= 2, "reads of the pod and the job the shadow never saw were not sent");
  t.same([...new Set(s.differences.map((d) => d.rule))], ["jobs.health.shape"], "a read's difference is still found");
});

/** A shadow that holds every request it gets and never answers; its URL. */
async function hangingServer(t: Test): Promise<string> {
  const held: import("node:http").ServerResponse[] = [];
  const hang: Server = createServer((_req, res) => void held.push(res));
  await new Promise<void>((r) => hang.listen(0, "127.0.0.1", () => r()));
  t.teardown(() => {
    for (const r of held) r.destroy();
    hang.closeAllConnections();
    return new Promise<void>((r) => hang.close(() => r()));
  });
  return `http://127.0.0.1:${(hang.address() as AddressInfo).port}`;
}

t.test("a shadow that never answers: the client's traffic goes on, the exchanges are dropped and counted", async (t) => {
  const target = await emulator(t);
  const hang = await hangingServer(t);
  const s = await proxied(t, target, hang, { shadowQueue: 2, shadowConcurrency: 1, shadowTimeoutMs: 60_000 });
  const headers = { authorization: `Bearer ${s.key}` };
  // More reads than the queue holds, while the shadow holds every request it got: each is answered by the target.
  for (let i = 0; i < 6; i++) {
    const res = await fetch(`${s.proxy.baseUrl}/v2/pods`, { headers });
    t.equal(res.status, 200, `read ${i + 1} answered`);
    await res.arrayBuffer();
  }
  // A second signal's stop: the request at the shadow gets no grace.
  s.proxy.forceClose();
  const { report } = await s.proxy.stop();
  const rec = report.shadow!;
  t.equal(rec.dropped.queueFull, 4, "past the queue, dropped at once");
  t.equal(rec.dropped.atStop, 2, "the one at the shadow and the one waiting, dropped at the stop");
  t.equal(rec.compared, 0);
});

t.test("a shadow slower than --shadow-timeout: dropped as timed out", async (t) => {
  const target = await emulator(t);
  const hang = await hangingServer(t);
  const s = await proxied(t, target, hang, { shadowTimeoutMs: 200 });
  const res = await fetch(`${s.proxy.baseUrl}/v2/pods`, { headers: { authorization: `Bearer ${s.key}` } });
  t.equal(res.status, 200);
  await res.arrayBuffer();
  await s.proxy.shadow!.settled();
  const { report } = await s.proxy.stop();
  t.equal(report.shadow!.dropped.timeout, 1);
});

t.test("--shadow emulator: the proxy starts an embedded emulator as the shadow, and a correct target shows no difference", async (t) => {
  const target = await emulator(t);
  const s = await proxied(t, target, "emulator", { shadowWrites: true });
  t.match(s.proxy.shadow!.target.name, /^the embedded emulator \(http:\/\/127\.0\.0\.1:\d+\)$/);
  await traffic(s.proxy, s.key);
  const { report } = await s.proxy.stop();
  t.same(s.differences, [], "no difference");
  t.equal(report.shadow!.skipped.unknownObject, 0, "ids mapped");
  t.ok(report.shadow!.compared >= 8, `${report.shadow!.compared} compared`);
});
