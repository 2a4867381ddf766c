// Network volumes, templates, registry credentials and endpoints: list and get, what each account
// sees, 404 for unknown ids and for another account's records; and the two billing reads.
import t from "tap";
import { seconds } from "../../../core/index.ts";
import { cpuPodBody, gpuPodBody, harness, KEYS, problemErrors, schemaErrors } from "./test-api.ts";

type Json = Record<string, any>;

interface Kind {
  readonly path: string;
  readonly listKey: string;
  readonly listSchema: string;
  readonly itemSchema: string;
  readonly alpha: readonly string[];
  readonly beta: readonly string[];
}

const KINDS: readonly Kind[] = [
  {
    path: "/v2/networkvolumes", listKey: "networkVolumes", listSchema: "cpsim:NetworkVolumeList", itemSchema: "cpsim:NetworkVolume",
    alpha: ["vol-alpha-ustx3", "vol-alpha-euro1", "vol-alpha-usks2"], beta: ["vol-beta-usga1", "vol-beta-camtl1"],
  },
  {
    path: "/v2/templates", listKey: "templates", listSchema: "cpsim:TemplateList", itemSchema: "cpsim:Template",
    alpha: ["tpl-pytorch-2-4", "tpl-pytorch-rocm-6-1", "tpl-ubuntu-cpu", "tpl-vllm-worker", "tpl-alpha-trainer"],
    beta: ["tpl-pytorch-2-4", "tpl-pytorch-rocm-6-1", "tpl-ubuntu-cpu", "tpl-vllm-worker", "tpl-beta-sim"],
  },
  {
    path: "/v2/containerregistryauth", listKey: "registries", listSchema: "cpsim:RegistryList", itemSchema: "cpsim:Registry",
    alpha: ["reg-alpha-ghcr", "reg-alpha-dockerhub"], beta: ["reg-beta-ecr"],
  },
  {
    path: "/v2/endpoints", listKey: "endpoints", listSchema: "cpsim:EndpointList", itemSchema: "cpsim:Endpoint",
    alpha: ["conformance", "public-flux-1-schnell", "public-llama-3-1-8b-instruct", "alpha-echo"],
    beta: ["conformance", "public-flux-1-schnell", "public-llama-3-1-8b-instruct", "beta-sdxl"],
  },
];

for (const kind of KINDS) {
  t.test(`${kind.path}: each account sees its own and the shared records`, async (t) => {
    const h = harness();
    for (const [key, ids, others] of [[KEYS.alpha, kind.alpha, kind.beta], [KEYS.beta, kind.beta, kind.alpha]] as const) {
      const list = h.call("GET", kind.path, { key });
      t.equal(list.status, 200);
      t.same(schemaErrors(kind.listSchema, list.body), []);
      const items = (list.body as Json)[kind.listKey] as Json[];
      t.same(items.map((x) => x.id), ids);
      t.ok(items.every((x) => !("accountId" in x)), "no owner ids are shown");
      for (const id of ids) {
        const one = h.call("GET", `${kind.path}/${encodeURIComponent(id)}`, { key });
        t.equal(one.status, 200, id);
        t.same(schemaErrors(kind.itemSchema, one.body), []);
        t.same(one.body, items.find((x) => x.id === id), "get answers the list's entry");
      }
      for (const id of others.filter((o) => !ids.includes(o))) {
        const res = h.call("GET", `${kind.path}/${encodeURIComponent(id)}`, { key });
        t.same(problemErrors(res, 404), [], `another account's ${id} is 404`);
      }
    }
    const unknown = h.call("GET", `${kind.path}/no-such-thing`, { key: KEYS.alphaRead });
    t.same(problemErrors(unknown, 404), []);
    t.match((unknown.body as Json).detail, new RegExp(`list them with GET ${kind.path}`));
  });
}

t.test("views carry the catalog's figures; a registry credential never a password", async (t) => {
  const h = harness();
  t.same(h.call("GET", "/v2/networkvolumes/vol-alpha-ustx3").body, { id: "vol-alpha-ustx3", name: "alpha-datasets", size: 100, dataCenterId: "US-TX-3" });
  const reg = h.call("GET", "/v2/containerregistryauth/reg-alpha-ghcr").body as Json;
  t.same(reg, { id: "reg-alpha-ghcr", name: "alpha GitHub packages", username: "alpha-ci" });
  const tpl = h.call("GET", "/v2/templates/tpl-pytorch-2-4").body as Json;
  t.equal(tpl.image, "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04");
  t.same(tpl.ports, ["8888/http", "22/tcp"]);
  const ep = h.call("GET", "/v2/endpoints/conformance").body as Json;
  t.equal(ep.shared, true);
  t.equal((h.call("GET", "/v2/endpoints/alpha-echo").body as Json).shared, false);
});

t.test("a template's container settings make a valid createPod body (spec: may be copied)", async (t) => {
  const h = harness();
  const tpl = h.call("GET", "/v2/templates/tpl-pytorch-2-4").body as Json;
  const { image, args, disk, ports, env, registry } = tpl;
  const res = h.call("POST", "/v2/pods", { body: gpuPodBody({ image, args, disk, ports, env, registry }) });
  t.equal(res.status, 201, JSON.stringify(res.body));
});

t.test("GET /v2/billing/pods: the current hourly cost of the caller's pods", async (t) => {
  const h = harness();
  const empty = h.call("GET", "/v2/billing/pods");
  t.equal(empty.status, 200);
  t.same(schemaErrors("cpsim:PodBilling", empty.body), []);
  t.same((empty.body as Json).records, []);
  t.equal((empty.body as Json).metadata.totalCostPerHour, 0);

  const gpu = (h.call("POST", "/v2/pods", { body: gpuPodBody({ gpu: { id: "NVIDIA GeForce RTX 4090", count: 2 } }) }).body as Json).id;
  const cpu = (h.call("POST", "/v2/pods", { body: cpuPodBody({ cpu: { id: "cpu3c", vcpuCount: 4 } }) }).body as Json).id;
  h.call("POST", "/v2/pods", { key: KEYS.beta, body: gpuPodBody() });
  h.advance(seconds(120));
  const res = h.call("GET", "/v2/billing/pods");
  t.same(schemaErrors("cpsim:PodBilling", res.body), []);
  const body = res.body as Json;
  t.same(body.records.map((r: Json) => r.podId), [gpu, cpu], "alpha's pods only");
  const pods = (h.call("GET", "/v2/pods").body as Json).pods as Json[];
  for (const r of body.records as Json[]) {
    const pod = pods.find((p) => p.id === r.podId)!;
    t.equal(r.costPerHour, pod.cost, "the record's rate is the Pod's cost");
    t.ok(Math.abs(r.computeCostPerHour + r.storageCostPerHour - r.costPerHour) < 1e-6, "compute + storage = total");
  }
  const g = body.records[0] as Json;
  t.equal(g.computeCostPerHour, 1.38, "2 x RTX 4090 at 0.69 in the secure cloud");
  t.equal(g.gpuTypeId, "NVIDIA GeForce RTX 4090");
  t.equal(g.cpuFlavorId, null);
  const c = body.records[1] as Json;
  t.equal(c.computeCostPerHour, 0.12, "4 vCPUs of cpu3c at 0.03");
  t.equal(c.vcpuCount, 4);
  t.equal(body.metadata.recordCount, 2);
  t.equal(body.metadata.totalCostPerHour, Math.round((g.costPerHour + c.costPerHour) * 1e6) / 1e6);
  t.equal(body.metadata.asOf, "2026-01-01T00:02:00.000Z", "the request's virtual instant");

  h.call("POST", `/v2/pods/${gpu}/action`, { body: { action: "stop" } });
  const stopped = (h.call("GET", "/v2/billing/pods").body as Json).records[0] as Json;
  t.same([stopped.costPerHour, stopped.computeCostPerHour, stopped.storageCostPerHour], [0, 0, 0], "a stopped pod costs nothing");
});

t.test("GET /v2/billing/endpoints: the caller's endpoints, workers holding GPUs at the preferred type's price", async (t) => {
  const h = harness();
  const res = h.call("GET", "/v2/billing/endpoints");
  t.equal(res.status, 200);
  t.same(schemaErrors("cpsim:EndpointBilling", res.body), []);
  const body = res.body as Json;
  t.same(body.records.map((r: Json) => r.endpointId), ["alpha-echo"], "alpha owns one endpoint; shared ones are not billed to it");
  const echo = body.records[0] as Json;
  t.equal(echo.gpuTypeId, "NVIDIA RTX A5000");
  t.equal(echo.billedWorkers, 0, "no workers with workersMin 0 and no jobs");
  t.equal(echo.costPerHour, 0);
  const beta = h.call("GET", "/v2/billing/endpoints", { key: KEYS.beta }).body as Json;
  t.same(beta.records.map((r: Json) => r.endpointId), ["beta-sdxl"]);
  t.same((h.call("GET", "/v2/billing/endpoints", { key: KEYS.exempt }).body as Json).records, []);
});

t.test("GET /v2/billing/endpoints counts the workers a job brought up", async (t) => {
  const h = harness();
  const submitted = h.platform.serverless.submit({ endpointId: "alpha-echo", accountId: "acct-alpha", input: { op: "sleep", ms: 60_000 } });
  t.ok((submitted as { ok: boolean }).ok, JSON.stringify(submitted));
  h.advance(seconds(10));
  const workers = h.platform.serverless.healthOf(h.platform.serverless.endpointIndex("alpha-echo")).workers;
  const held = workers.initializing + workers.idle + workers.running;
  t.ok(held >= 1, `a worker holds GPUs (${JSON.stringify(workers)})`);
  const echo = (h.call("GET", "/v2/billing/endpoints").body as Json).records[0] as Json;
  t.equal(echo.billedWorkers, held);
  t.equal(echo.pricePerGpuHour, h.platform.catalog.gpuTypes.find((g) => g.id === "NVIDIA RTX A5000")!.securePrice);
  t.equal(echo.costPerHour, Math.round(held * echo.pricePerGpuHour * 1e6) / 1e6);
  t.same(schemaErrors("cpsim:EndpointBilling", { records: [echo], metadata: { asOf: "2026-01-01T00:00:10.000Z", basis: "x", recordCount: 1, totalCostPerHour: echo.costPerHour } }), []);
});
