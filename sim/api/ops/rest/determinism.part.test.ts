// The same requests at the same virtual instants on two platforms with the same seed give
// byte-identical answers (status, headers, body); reads change nothing; another seed differs.
import t from "tap";
import { seconds } from "../../../core/index.ts";
import type { HttpMethod } from "../../types.ts";
import { cpuPodBody, gpuPodBody, harness, KEYS, type Harness } from "./test-api.ts";

type Step =
  | { readonly advance: number }
  | { readonly method: HttpMethod; readonly path: string | ((ids: string[]) => string); readonly body?: unknown; readonly key?: string; readonly query?: Record<string, string> };

const pod = (i: number) => (ids: string[]) => `/v2/pods/${ids[i] ?? "missing"}`;

const SCRIPT: readonly Step[] = [
  { method: "POST", path: "/v2/pods", body: gpuPodBody({ name: "g" }) },
  { method: "POST", path: "/v2/pods", body: cpuPodBody({ name: "c" }) },
  { method: "POST", path: "/v2/pods", body: gpuPodBody({ name: "n", mounts: { network: [{ volumeId: "vol-alpha-euro1", path: "/d" }] }, globalNetworking: true }) },
  { method: "POST", path: "/v2/pods", body: gpuPodBody({ name: "p", mounts: { persistent: { size: 20, path: "/w" } }, cloud: "COMMUNITY" }) },
  { method: "POST", path: "/v2/pods", body: gpuPodBody({ gpu: { id: "NVIDIA GeForce RTX 3080" } }) },
  { method: "POST", path: "/v2/pods", body: { name: "", gpu: {} } },
  { method: "POST", path: "/v2/pods", key: KEYS.beta, body: gpuPodBody({ name: "b" }) },
  { method: "GET", path: "/v2/pods" },
  { advance: seconds(20) },
  { method: "GET", path: "/v2/catalog/gpus" },
  { method: "GET", path: "/v2/catalog/gpus", query: { cloud: "COMMUNITY" } },
  { method: "GET", path: "/v2/catalog/cpus" },
  { method: "GET", path: "/v2/catalog/datacenters" },
  { method: "POST", path: (ids) => `${pod(0)(ids)}/action`, body: { action: "stop" } },
  { method: "PATCH", path: pod(1), body: { name: "c2", env: { A: "b" } } },
  { method: "PATCH", path: pod(2), body: { mounts: { network: [] } } },
  { advance: seconds(90) },
  { method: "GET", path: "/v2/pods" },
  { method: "POST", path: (ids) => `${pod(0)(ids)}/action`, body: { action: "start" } },
  { method: "POST", path: (ids) => `${pod(2)(ids)}/action`, body: { action: "restart" } },
  { method: "GET", path: "/v2/billing/pods" },
  { method: "GET", path: "/v2/billing/endpoints" },
  { advance: seconds(45) },
  { method: "DELETE", path: pod(3) },
  { method: "GET", path: pod(2) },
  { method: "GET", path: pod(0), key: KEYS.beta },
  { method: "GET", path: "/v2/pods" },
  { method: "GET", path: "/v2/templates" },
  { method: "GET", path: "/v2/endpoints/alpha-echo" },
  { method: "GET", path: "/v2/catalog/gpus" },
];

/** Runs the script and returns every answer serialized, one per request. */
function run(h: Harness): string[] {
  const ids: string[] = [];
  const out: string[] = [];
  for (const step of SCRIPT) {
    if ("advance" in step) {
      h.advance(step.advance);
      continue;
    }
    const path = typeof step.path === "function" ? step.path(ids) : step.path;
    const res = h.call(step.method, path, { key: step.key ?? KEYS.alpha, body: step.body, query: step.query });
    if (step.method === "POST" && path === "/v2/pods" && res.status === 201 && (step.key ?? KEYS.alpha) === KEYS.alpha) {
      ids.push((res.body as { id: string }).id);
    }
    out.push(JSON.stringify(res));
  }
  return out;
}

t.test("same seed, same requests: byte-identical answers", async (t) => {
  const a = run(harness({ seed: 7 }));
  const b = run(harness({ seed: 7 }));
  t.equal(a.length, SCRIPT.filter((s) => !("advance" in s)).length);
  t.equal(a.join("\n"), b.join("\n"));
  t.ok(a.some((line) => line.includes('"status":201')) && a.some((line) => line.includes('"status":409')), "the script exercises successes and refusals");
});

t.test("another seed gives other answers (the check has power)", async (t) => {
  t.not(run(harness({ seed: 7 })).join("\n"), run(harness({ seed: 8 })).join("\n"));
});

t.test("reads change nothing: reading between steps leaves the model's event log as it was", async (t) => {
  const quiet = harness({ seed: 3 });
  const busy = harness({ seed: 3 });
  for (const h of [quiet, busy]) h.call("POST", "/v2/pods", { body: gpuPodBody() });
  for (const path of ["/v2/pods", "/v2/catalog/gpus", "/v2/catalog/cpus", "/v2/catalog/datacenters", "/v2/billing/pods", "/v2/billing/endpoints", "/v2/templates"]) {
    busy.call("GET", path);
  }
  for (const h of [quiet, busy]) h.advance(seconds(300));
  t.equal(busy.platform.hash(), quiet.platform.hash());
  t.same(busy.call("GET", "/v2/pods").body, quiet.call("GET", "/v2/pods").body);
});
