// The same operations with variables instead of inline arguments give the same answers, and
// variables that do not fit their types answer 400 before anything runs.
import t from "tap";
import { minutes } from "../../core/index.ts";
import { ALPHA, RTX4090, checkRecord, gql, newPlatform } from "./test-support.ts";

const DEPLOY = `mutation Deploy($input: PodFindAndDeployOnDemandInput!) {
  podFindAndDeployOnDemand(input: $input) { id imageName env machineId machine { podHostId } }
}`;

const input = {
  cloudType: "ALL",
  gpuCount: 1,
  volumeInGb: 20,
  containerDiskInGb: 10,
  minVcpuCount: 2,
  minMemoryInGb: 8,
  gpuTypeId: RTX4090,
  name: "vars",
  imageName: "ubuntu:22.04",
  dockerArgs: "",
  ports: "8888/http,22/tcp",
  volumeMountPath: "/workspace",
  env: [{ key: "A", value: "1" }, { key: "B", value: null }],
  startSsh: true,
  supportPublicIp: true,
  dataCenterId: null,
  countryCode: null,
  templateId: null,
  networkVolumeId: null,
  minDownload: 10,
  minUpload: 10,
};

const inline = `mutation {
  podFindAndDeployOnDemand(input: {
    cloudType: ALL, gpuCount: 1, volumeInGb: 20, containerDiskInGb: 10, minVcpuCount: 2, minMemoryInGb: 8,
    gpuTypeId: "${RTX4090}", name: "vars", imageName: "ubuntu:22.04", dockerArgs: "", ports: "8888/http,22/tcp",
    volumeMountPath: "/workspace", env: [{key: "A", value: "1"}, {key: "B", value: null}], startSsh: true,
    supportPublicIp: true, dataCenterId: null, countryCode: null, templateId: null, networkVolumeId: null,
    minDownload: 10, minUpload: 10
  }) { id imageName env machineId machine { podHostId } }
}`;

t.test("podFindAndDeployOnDemand: variables and inline arguments give the same pod on equal platforms", async (t) => {
  const a = gql(newPlatform(), ALPHA, DEPLOY, { input });
  const b = gql(newPlatform(), ALPHA, inline);
  t.equal(a.status, 200, JSON.stringify(a.body));
  t.same(a.body, b.body);
  const pod = a.body.data!.podFindAndDeployOnDemand;
  checkRecord("GraphqlPod", pod);
  t.same(pod.env, ["A=1", "B="], "a null value is the empty string");
});

t.test("the pod operations with variables", async (t) => {
  const platform = newPlatform();
  const cpu = gql(platform, ALPHA, "mutation ($i: deployCpuPodInput!) { deployCpuPod(input: $i) { id imageName } }", {
    i: { instanceId: "cpu3c-4-8", name: "cpu", imageName: "ubuntu:22.04", cloudType: "ALL", templateId: "runpod-ubuntu", dataCenterId: null },
  });
  t.equal(cpu.status, 200, JSON.stringify(cpu.body));
  const gpu = gql(platform, ALPHA, DEPLOY, { input });
  const id = gpu.body.data!.podFindAndDeployOnDemand.id as string;
  platform.advanceTo(platform.now + minutes(3));

  const one = gql(platform, ALPHA, "query One($podId: String!) { pod(input: {podId: $podId}) { id name desiredStatus runtime { uptimeInSeconds } } }", { podId: id });
  t.equal(one.body.data!.pod.id, id);
  const filter = gql(platform, ALPHA, "query ($f: PodFilter!) { pod(input: $f) { id } }", { f: { podId: id } });
  t.same(filter.body, { data: { pod: { id } } });

  const stop = gql(platform, ALPHA, "mutation Stop($input: PodStopInput!) { podStop(input: $input) { id desiredStatus } }", { input: { podId: id } });
  t.same(stop.body, { data: { podStop: { id, desiredStatus: "EXITED" } } });
  const resume = gql(platform, ALPHA, "mutation ($id: String!, $n: Int) { podResume(input: {podId: $id, gpuCount: $n}) { id desiredStatus } }", { id, n: 1 });
  t.same(resume.body, { data: { podResume: { id, desiredStatus: "RUNNING" } } });
  const term = gql(platform, ALPHA, "mutation ($id: String!) { podTerminate(input: {podId: $id}) }", { id });
  t.same(term.body, { data: { podTerminate: null } });

  const price = gql(platform, ALPHA, "query ($id: String, $n: Int, $s: Boolean) { gpuTypes(input: {id: $id}) { id lowestPrice(input: {gpuCount: $n, secureCloud: $s}) { uninterruptablePrice stockStatus availableGpuCounts } } }", {
    id: RTX4090,
    n: 1,
    s: true,
  });
  const live = platform.gpuStock.lowestPrice(RTX4090, { gpuCount: 1, secureCloud: true })!;
  t.same(price.body.data!.gpuTypes[0].lowestPrice, { uninterruptablePrice: live.uninterruptablePrice, stockStatus: live.stockStatus, availableGpuCounts: live.availableGpuCounts });
});

t.test("variables as a JSON string are read as the object they encode", async (t) => {
  const platform = newPlatform();
  const a = gql(platform, ALPHA, "query ($id: String) { gpuTypes(input: {id: $id}) { id } }", JSON.stringify({ id: RTX4090 }) as never);
  t.same(a.body, { data: { gpuTypes: [{ id: RTX4090 }] } });
});

t.test("variables that do not fit answer 400 and change nothing", async (t) => {
  const platform = newPlatform();
  const missing = gql(platform, ALPHA, DEPLOY, {});
  t.equal(missing.status, 400);
  t.equal(missing.body.errors![0]!.extensions.code, "BAD_USER_INPUT");
  t.match(missing.body.errors![0]!.message, /\$input/);
  const wrong = gql(platform, ALPHA, DEPLOY, { input: { ...input, gpuCount: "two" } });
  t.equal(wrong.status, 400);
  const badEnum = gql(platform, ALPHA, DEPLOY, { input: { ...input, cloudType: "PRIVATE" } });
  t.equal(badEnum.status, 400);
  t.equal(platform.pods.size, 0, "nothing was created");
});
