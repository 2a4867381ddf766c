// createPod's successes and refusals, listPods, getPod, deletePod, and account isolation.
import t from "tap";
import { minutes, seconds } from "../../../core/index.ts";
import { NO_INSTANCES_MESSAGE } from "../../../domain/scheduler/index.ts";
import { cpuPodBody, gpuPodBody, harness, KEYS, problemErrors, schemaErrors } from "./test-api.ts";

type PodBody = Record<string, any>;

t.test("createPod: 201 with a PROVISIONING GPU pod carrying every default", async (t) => {
  const h = harness();
  const res = h.call("POST", "/v2/pods", { body: gpuPodBody() });
  t.equal(res.status, 201);
  t.equal(res.headers["content-type"], "application/json");
  t.same(schemaErrors("cpsim:Pod", res.body), []);
  const pod = res.body as PodBody;
  t.equal(pod.status, "PROVISIONING");
  t.same(pod.actions, ["stop", "terminate"]);
  t.same(pod.gpu, { id: "NVIDIA GeForce RTX 4090", count: 1 }, "gpu.count defaults to 1");
  t.notOk("cpu" in pod);
  t.equal(pod.cloud, "SECURE", "cloud defaults to SECURE");
  t.same(pod.globalNetworking, { enabled: false }, "globalNetworking defaults to false");
  t.equal(pod.disk, 50, "container disk defaults to 50 GB");
  t.same(pod.mounts, {});
  t.equal(pod.runtime, null);
  t.equal(pod.startedAt, null);
  t.equal(pod.template, null);
  t.ok(pod.cost > 0.69, `a running-bound pod costs its GPU and storage (${pod.cost})`);
  t.ok(typeof pod.dataCenterId === "string" && pod.dataCenterId.length > 0);
  t.ok(res.headers["ratelimit"], "PlatformApi adds the rate-limit headers");
});

t.test("createPod: a CPU pod gets memory derived from its flavor", async (t) => {
  const h = harness();
  const res = h.call("POST", "/v2/pods", { body: cpuPodBody({ cpu: { id: "cpu3g", vcpuCount: 4 } }) });
  t.equal(res.status, 201);
  t.same(schemaErrors("cpsim:Pod", res.body), []);
  const pod = res.body as PodBody;
  t.same(pod.cpu, { id: "cpu3g", vcpuCount: 4, memory: 16 }, "4 vCPUs x 4 GB per vCPU");
  t.notOk("gpu" in pod);
});

t.test("createPod: a network mount on the caller's volume places the pod in the volume's data center", async (t) => {
  const h = harness();
  const res = h.call("POST", "/v2/pods", {
    body: gpuPodBody({ mounts: { network: [{ volumeId: "vol-alpha-ustx3", path: "/data" }] }, globalNetworking: true }),
  });
  t.equal(res.status, 201, JSON.stringify(res.body));
  t.same(schemaErrors("cpsim:Pod", res.body), []);
  const pod = res.body as PodBody;
  t.equal(pod.dataCenterId, "US-TX-3");
  t.same(pod.mounts, { network: [{ volumeId: "vol-alpha-ustx3", path: "/data" }] });
  t.equal(pod.globalNetworking.enabled, true);
  t.equal(pod.globalNetworking.internalDns, `${pod.id}.cpsim.internal`);
});

t.test("createPod: another account's network volume is not an existing volume to the caller", async (t) => {
  const h = harness();
  const res = h.call("POST", "/v2/pods", { key: KEYS.beta, body: gpuPodBody({ mounts: { network: [{ volumeId: "vol-alpha-ustx3", path: "/data" }] } }) });
  t.same(problemErrors(res, 400), []);
  t.match((res.body as PodBody).errors[0], /"vol-alpha-ustx3" is not an existing network volume/);
  t.same(h.platform.pods.list("acct-beta"), [], "nothing was created");
});

t.test("createPod: no host fits → the registry's status and the real platform's message", async (t) => {
  const h = harness();
  // The secure cloud has no RTX 3080 hosts in the bundled catalog.
  const res = h.call("POST", "/v2/pods", { body: gpuPodBody({ gpu: { id: "NVIDIA GeForce RTX 3080" }, cloud: "SECURE" }) });
  t.same(problemErrors(res, 409), []);
  t.equal((res.body as PodBody).detail, NO_INSTANCES_MESSAGE);
  const tooMany = h.call("POST", "/v2/pods", { body: gpuPodBody({ gpu: { id: "NVIDIA GeForce RTX 4090", count: 16 } }) });
  t.same(problemErrors(tooMany, 409), []);
  t.equal((tooMany.body as PodBody).detail, NO_INSTANCES_MESSAGE);
  t.same(h.platform.pods.list("acct-alpha"), []);
});

t.test("createPod: a body that is not an object, or absent, is 422 with errors", async (t) => {
  const h = harness();
  for (const body of [undefined, [], "pod", 42]) {
    const res = h.call("POST", "/v2/pods", { body });
    t.same(problemErrors(res, 422), [], JSON.stringify(body));
    t.ok(((res.body as PodBody).errors ?? []).length >= 1);
  }
});

t.test("createPod: every failure of a body is listed in errors, the detail says how many", async (t) => {
  const h = harness();
  const res = h.call("POST", "/v2/pods", { body: { name: "", gpu: { id: "NVIDIA GeForce RTX 4090", count: 0 }, extra: 1 } });
  t.same(problemErrors(res, 422), []);
  const body = res.body as PodBody;
  t.ok(body.errors.length >= 4, body.errors.join(" | "));
  t.match(body.detail, new RegExp(`has ${body.errors.length} problems`));
});

t.test("listPods and getPod: the caller's pods, each schema-valid; 404 for unknown ids", async (t) => {
  const h = harness();
  const a = (h.call("POST", "/v2/pods", { body: gpuPodBody({ name: "a" }) }).body as PodBody).id;
  const b = (h.call("POST", "/v2/pods", { body: cpuPodBody({ name: "b" }) }).body as PodBody).id;
  h.call("POST", "/v2/pods", { key: KEYS.beta, body: gpuPodBody({ name: "beta's" }) });
  h.advance(seconds(5));

  const list = h.call("GET", "/v2/pods");
  t.equal(list.status, 200);
  t.same(schemaErrors("cpsim:PodList", list.body), []);
  t.same((list.body as { pods: PodBody[] }).pods.map((p) => p.id), [a, b], "alpha's pods only, in creation order");

  const one = h.call("GET", `/v2/pods/${a}`);
  t.equal(one.status, 200);
  t.same(schemaErrors("cpsim:Pod", one.body), []);
  t.equal((one.body as PodBody).name, "a");

  const read = h.call("GET", `/v2/pods/${a}`, { key: KEYS.alphaRead });
  t.equal(read.status, 200, "a read-only key reads");

  const missing = h.call("GET", "/v2/pods/nosuchpod");
  t.same(problemErrors(missing, 404), []);
  t.match((missing.body as PodBody).detail, /No pod "nosuchpod" exists in your account/);
});

t.test("account isolation: beta can neither see nor touch alpha's pods (404, as for unknown ids)", async (t) => {
  const h = harness();
  const id = (h.call("POST", "/v2/pods", { body: gpuPodBody() }).body as PodBody).id;
  const unknown = h.call("GET", "/v2/pods/zzzzzzzzzzzzzz", { key: KEYS.beta });
  const attempts = [
    h.call("GET", `/v2/pods/${id}`, { key: KEYS.beta }),
    h.call("PATCH", `/v2/pods/${id}`, { key: KEYS.beta, body: { name: "mine now" } }),
    h.call("POST", `/v2/pods/${id}/action`, { key: KEYS.beta, body: { action: "stop" } }),
    h.call("DELETE", `/v2/pods/${id}`, { key: KEYS.beta }),
  ];
  for (const res of attempts) {
    t.same(problemErrors(res, 404), []);
    t.equal((res.body as PodBody).detail, (unknown.body as PodBody).detail.replace("zzzzzzzzzzzzzz", id), "indistinguishable from an unknown id");
  }
  t.same((h.call("GET", "/v2/pods", { key: KEYS.beta }).body as { pods: unknown[] }).pods, []);
  const mine = h.call("GET", `/v2/pods/${id}`).body as PodBody;
  t.equal(mine.name, "test-gpu", "alpha's pod is unchanged");
  t.equal(mine.status, "PROVISIONING");
});

t.test("read-only keys are refused on every pod write before the operation runs", async (t) => {
  const h = harness();
  const id = (h.call("POST", "/v2/pods", { body: gpuPodBody() }).body as PodBody).id;
  for (const [method, path, body] of [
    ["POST", "/v2/pods", gpuPodBody()],
    ["PATCH", `/v2/pods/${id}`, { name: "x" }],
    ["POST", `/v2/pods/${id}/action`, { action: "stop" }],
    ["DELETE", `/v2/pods/${id}`, undefined],
  ] as const) {
    t.same(problemErrors(h.call(method, path, { key: KEYS.alphaRead, body }), 403), [], `${method} ${path}`);
  }
  t.equal(h.platform.pods.list("acct-alpha").length, 1);
});

t.test("deletePod: 204 without a body, the pod TERMINATED; again 204; gone after retention → 404", async (t) => {
  const h = harness();
  const id = (h.call("POST", "/v2/pods", { body: gpuPodBody() }).body as PodBody).id;
  const del = h.call("DELETE", `/v2/pods/${id}`);
  t.equal(del.status, 204);
  t.equal(del.body, undefined);
  const pod = h.call("GET", `/v2/pods/${id}`).body as PodBody;
  t.equal(pod.status, "TERMINATED");
  t.same(pod.actions, []);
  t.equal(pod.cost, 0);
  t.equal(h.call("DELETE", `/v2/pods/${id}`).status, 204, "DELETE is idempotent while the pod is still visible");
  h.advance(minutes(11));
  t.same(problemErrors(h.call("GET", `/v2/pods/${id}`), 404), []);
  t.same(problemErrors(h.call("DELETE", `/v2/pods/${id}`), 404), []);
});
