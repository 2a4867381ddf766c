// Pods through GraphQL over virtual time: desiredStatus and runtime follow the pod's status,
// actions the status does not allow are errors in `errors` (HTTP 200), accounts are isolated,
// and equal seeds and documents give equal answers.
import t from "tap";
import { minutes, seconds } from "../../core/index.ts";
import { ALPHA, BETA, RTX4090, checkRecord, gql, newPlatform } from "./test-support.ts";

const deploy = (name: string, extra = "") =>
  `mutation { podFindAndDeployOnDemand(input: {name: "${name}", imageName: "ubuntu:22.04", gpuTypeId: "${RTX4090}", cloudType: ALL, ports: "8888/http" ${extra}}) { id desiredStatus } }`;
const POD = (id: string) => `{ pod(input: {podId: "${id}"}) { id name desiredStatus costPerHr uptimeSeconds runtime { uptimeInSeconds gpus { id gpuUtilPercent memoryUtilPercent } container { cpuPercent memoryPercent } ports { privatePort type } } } }`;

// Without outside tenants, a stopped pod's host keeps its GPUs free for the resume.
const quiet = () => newPlatform({ stock: { outsideIntensity: 0 } });

t.test("create → RUNNING → podStop → EXITED → podResume → RUNNING → podTerminate", async (t) => {
  const platform = quiet();
  const created = gql(platform, ALPHA, deploy("life"));
  const id = created.body.data!.podFindAndDeployOnDemand.id as string;
  t.equal(created.body.data!.podFindAndDeployOnDemand.desiredStatus, "RUNNING", "a new pod is desired RUNNING");
  t.equal(gql(platform, ALPHA, POD(id)).body.data!.pod.runtime, null, "no runtime while provisioning");

  platform.advanceTo(platform.now + minutes(5));
  const running = gql(platform, ALPHA, POD(id)).body.data!.pod;
  checkRecord("GraphqlPod", running);
  checkRecord("GraphqlPodRuntime", running.runtime);
  t.equal(platform.pods.get("acct-alpha", id)!.status, "RUNNING");
  t.ok(running.runtime.uptimeInSeconds > 0);
  t.equal(running.runtime.gpus.length, 1);
  t.same(running.runtime.ports, [{ privatePort: 8888, type: "http" }]);
  t.ok(running.costPerHr > 0);

  const stop = gql(platform, ALPHA, `mutation { podStop(input: {podId: "${id}"}) { id desiredStatus costPerHr runtime { uptimeInSeconds } } }`);
  t.same(stop.body.data!.podStop, { id, desiredStatus: "EXITED", costPerHr: 0, runtime: null });
  platform.advanceTo(platform.now + minutes(1));
  t.equal(gql(platform, ALPHA, POD(id)).body.data!.pod.desiredStatus, "EXITED", "stays EXITED");

  const again = gql(platform, ALPHA, `mutation { podStop(input: {podId: "${id}"}) { id } }`);
  t.equal(again.status, 200, "a resolver error is HTTP 200");
  t.same(again.body.data, { podStop: null });
  t.equal(again.body.errors![0]!.extensions.code, "CONFLICT");
  t.match(again.body.errors![0]!.message, /podStop cannot act on pod .* EXITED.*PROVISIONING, STARTING, RUNNING/);
  t.same((again.body.errors![0] as any).path, ["podStop"]);

  const resume = gql(platform, ALPHA, `mutation { podResume(input: {podId: "${id}", gpuCount: 1}) { id desiredStatus } }`);
  t.same(resume.body.data!.podResume, { id, desiredStatus: "RUNNING" });
  platform.advanceTo(platform.now + seconds(2));
  t.equal(gql(platform, ALPHA, POD(id)).body.data!.pod.runtime, null, "starting: no runtime yet");
  platform.advanceTo(platform.now + minutes(5));
  t.equal(platform.pods.get("acct-alpha", id)!.status, "RUNNING");
  t.ok(gql(platform, ALPHA, POD(id)).body.data!.pod.runtime.uptimeInSeconds > 0);

  const twice = gql(platform, ALPHA, `mutation { podResume(input: {podId: "${id}"}) { id } }`);
  t.equal(twice.body.errors![0]!.extensions.code, "CONFLICT", "resuming a running pod is refused like a REST start");

  t.same(gql(platform, ALPHA, `mutation { podTerminate(input: {podId: "${id}"}) }`).body, { data: { podTerminate: null } });
  t.equal(gql(platform, ALPHA, POD(id)).body.data!.pod.desiredStatus, "TERMINATED", "visible as TERMINATED for its retention");
  const afterTerm = gql(platform, ALPHA, `mutation { podTerminate(input: {podId: "${id}"}) }`);
  t.equal(afterTerm.body.errors![0]!.extensions.code, "CONFLICT");
  platform.advanceTo(platform.now + minutes(30));
  t.same(gql(platform, ALPHA, POD(id)).body, { data: { pod: null } }, "gone after the retention");
});

t.test("podResume with another GPU count resizes the pod", async (t) => {
  const platform = quiet();
  const id = gql(platform, ALPHA, deploy("resize", ", gpuCount: 1")).body.data!.podFindAndDeployOnDemand.id as string;
  platform.advanceTo(platform.now + minutes(5));
  gql(platform, ALPHA, `mutation { podStop(input: {podId: "${id}"}) { id } }`);
  const bad = gql(platform, ALPHA, `mutation { podResume(input: {podId: "${id}", gpuCount: 0}) { id } }`);
  t.equal(bad.body.errors![0]!.extensions.code, "BAD_USER_INPUT");
  const r = gql(platform, ALPHA, `mutation { podResume(input: {podId: "${id}", gpuCount: 2}) { id gpuCount desiredStatus } }`);
  t.same(r.body, { data: { podResume: { id, gpuCount: 2, desiredStatus: "RUNNING" } } });
});

t.test("podResume when the host's GPUs were taken meanwhile: CONFLICT, the pod stays EXITED", async (t) => {
  const platform = quiet();
  const id = gql(platform, ALPHA, deploy("tied")).body.data!.podFindAndDeployOnDemand.id as string;
  platform.advanceTo(platform.now + minutes(5));
  gql(platform, ALPHA, `mutation { podStop(input: {podId: "${id}"}) { id } }`);
  const host = platform.pods.get("acct-alpha", id)!.hostIndex;
  t.ok(platform.gpuStock.acquireOnHost(host, platform.gpuStock.free(host)), "someone else takes every free GPU of the host");
  const r = gql(platform, ALPHA, `mutation { podResume(input: {podId: "${id}", gpuCount: 1}) { id desiredStatus } }`);
  t.equal(r.status, 200);
  t.same(r.body.data, { podResume: null });
  t.equal(r.body.errors![0]!.extensions.code, "CONFLICT");
  t.match(r.body.errors![0]!.message, /not enough free GPUs on the host machine/);
  t.equal(platform.pods.get("acct-alpha", id)!.status, "EXITED");
});

t.test("another account's pods are invisible and untouchable", async (t) => {
  const platform = newPlatform();
  const id = gql(platform, ALPHA, deploy("mine")).body.data!.podFindAndDeployOnDemand.id as string;
  t.same(gql(platform, BETA, "{ myself { id pods { id } } }").body, { data: { myself: { id: "acct-beta", pods: [] } } });
  t.same(gql(platform, BETA, POD(id)).body, { data: { pod: null } }, "null, as for an unknown id");
  t.same(gql(platform, BETA, POD("nope")).body, { data: { pod: null } });
  for (const m of [`podStop(input: {podId: "${id}"}) { id }`, `podResume(input: {podId: "${id}"}) { id }`, `podTerminate(input: {podId: "${id}"})`]) {
    const r = gql(platform, BETA, `mutation { ${m} }`);
    t.equal(r.body.errors![0]!.extensions.code, "NOT_FOUND", m);
    t.notMatch(r.body.errors![0]!.message, /acct-alpha/);
  }
  t.equal(platform.pods.get("acct-alpha", id)!.status, "PROVISIONING", "untouched");
  t.same(gql(platform, ALPHA, "{ myself { pods { id } } }").body.data!.myself.pods, [{ id }]);
});

t.test("a network volume of another account is refused", async (t) => {
  const platform = newPlatform();
  const r = gql(platform, ALPHA, deploy("x", ', networkVolumeId: "vol-beta-usga1"'));
  t.equal(r.body.errors![0]!.extensions.code, "BAD_USER_INPUT");
  t.match(r.body.errors![0]!.message, /not one of your network volumes/);
});

t.test("determinism: equal seeds and documents give byte-identical answers; reads draw nothing", async (t) => {
  const session = () => {
    const platform = newPlatform({ seed: 42, pods: {} });
    const out: string[] = [];
    const run = (q: string) => out.push(JSON.stringify(gql(platform, ALPHA, q).response));
    for (let i = 0; i < 4; i++) run(deploy(`d${i}`, `, gpuCount: ${1 + (i % 2)}`));
    run(`mutation { deployCpuPod(input: {name: "c", imageName: "ubuntu", instanceId: "cpu3c-2-4"}) { id machineId } }`);
    platform.advanceTo(minutes(7));
    const before = platform.hash();
    run("{ myself { pods { id name desiredStatus costPerHr lastStatusChange runtime { uptimeInSeconds gpus { id gpuUtilPercent } } machine { podHostId gpuAvailable } } } }");
    run(`{ gpuTypes { id lowestPrice(input: {gpuCount: 1}) { uninterruptablePrice stockStatus availableGpuCounts } } dataCenters { id gpuAvailability { gpuTypeId stockStatus } } }`);
    t.equal(platform.hash(), before, "queries leave the event log as it was");
    platform.advanceTo(minutes(60));
    run("{ myself { pods { id desiredStatus uptimeSeconds } } }");
    return out.join("\n");
  };
  t.equal(session(), session());
});
