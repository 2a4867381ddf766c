// The official clients, unmodified, against `cpsim serve` over HTTP: the Python client's calls
// (its REST v2 requests rebuilt exactly as runpod/api/ctl_commands.py builds them, with its
// headers, and its GraphQL documents) and every function of the JS SDK (runpod-sdk) on an
// endpoint the Python client just created. Real clock at 1000× so jobs of seconds take ms.
import t from "tap";
import runpodSdk, { health, purgeQueue, run, runSync, status, stream } from "runpod-sdk";
import { request } from "undici";
import { pythonEndpointsQuery, pythonUserQuery } from "../api/graphql/index.ts";
import { startEmulator } from "./index.ts";

const KEY = "cpsim_alpha_full_7f3a9c2e41b6d805";
type Json = Record<string, any>;

t.test("the Python client's calls, then every JS SDK function on the endpoint it created", async (t) => {
  // 20× the wall clock: a 600 s job lasts 30 s of wall time, so a cancel sent on a busy machine
  // still finds it running (at 1000× it had finished, and the cancel met a 409).
  const emulator = await startEmulator({ clock: "real", speed: 20, seed: 1, logger: false });
  t.teardown(() => emulator.close());
  const base = emulator.baseUrl;

  // runpod/api/rest.py's run_rest_request: these headers, json= body (None → no body), params= query.
  async function rest(method: string, path: string, json?: unknown, params?: Record<string, string | number>): Promise<{ status: number; body: Json | null }> {
    const url = new URL(path.replace(/^\//, ""), `${base}/`);
    for (const [k, v] of Object.entries(params ?? {})) url.searchParams.set(k, String(v));
    const res = await request(url, {
      method: method as "GET",
      headers: { accept: "application/json", "content-type": "application/json", "user-agent": "RunPod-Python-SDK/test", authorization: `Bearer ${KEY}` },
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: res.statusCode === 204 || text === "" ? null : (JSON.parse(text) as Json) };
  }
  // runpod/api/graphql.py: POST {"query": ...} with the key as Bearer.
  async function graphql(query: string): Promise<Json> {
    const res = await request(`${base}/graphql`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${KEY}` }, body: JSON.stringify({ query }) });
    const body = (await res.body.json()) as Json;
    t.notOk(body.errors, JSON.stringify(body.errors));
    return body.data;
  }

  // get_user / update_user_settings (PUT the keys, then get_user).
  const keys = "ssh-ed25519 AAAAC3NzaC1 me@laptop\n";
  t.equal((await rest("PUT", "/v2/account/ssh-keys", { keys: keys.split("\n").map((k) => k.trim()).filter((k) => k) })).status, 200);
  const me = (await graphql(pythonUserQuery)).myself;
  t.equal(me.pubKey, "ssh-ed25519 AAAAC3NzaC1 me@laptop");
  t.ok(me.networkVolumes.length > 0);

  // get_gpus / get_gpu.
  t.ok(((await rest("GET", "/v2/catalog/gpus")).body!.gpus as Json[]).length > 0);
  const gpu = await rest("GET", `/v2/catalog/gpus/${encodeURIComponent("NVIDIA GeForce RTX 4090")}`, undefined, { include: "AVAILABILITY", product: "POD", count: 1 });
  t.match(gpu, { status: 200, body: { id: "NVIDIA GeForce RTX 4090" } });
  t.equal((await rest("GET", "/v2/catalog/gpus/NVIDIA%20Nope")).status, 404, "get_gpu turns the 404 into its ValueError");

  // create_container_registry_auth, create_template(registry_auth_id=...), delete later.
  const reg = await rest("POST", "/v2/registries", { name: "ghcr", username: "me", password: "tok" });
  t.equal(reg.status, 201);
  const tpl = await rest("POST", "/v2/templates", {
    name: "py-worker", image: "ghcr.io/me/worker:1", disk: 10, serverless: true, args: "python -u handler.py",
    mounts: { persistent: { size: 20, path: "/workspace" } }, ports: ["8000/http"], env: { MODEL: "tiny" }, registry: reg.body!.id,
  });
  t.equal(tpl.status, 201, JSON.stringify(tpl.body));

  // create_pod(template_id=..., gpu_type_id=..., volume_mount_path=...): the client reads the template's mounts first.
  const read = await rest("GET", `/v2/templates/${tpl.body!.id}`);
  const persistent = read.body!.mounts.persistent;
  t.same(persistent, { size: 20, path: "/workspace" });
  const pod = await rest("POST", "/v2/pods", { name: "py-pod", startSsh: true, templateId: tpl.body!.id, mounts: { persistent: { size: persistent.size, path: "/data" } }, gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 } });
  t.equal(pod.status, 201, JSON.stringify(pod.body));
  t.match(pod.body, { image: "ghcr.io/me/worker:1", template: tpl.body!.id, env: { MODEL: "tiny" } });
  // A CPU pod the client's way: cpu {id, vcpuCount} from instance_id "cpu3c-2-4", default disk 10.
  const cpu = await rest("POST", "/v2/pods", { name: "py-cpu", startSsh: true, image: "ubuntu:22.04", disk: 10, cpu: { id: "cpu3c", vcpuCount: 2 } });
  t.equal(cpu.status, 201, JSON.stringify(cpu.body));
  // get_pods / get_pod / stop_pod / resume_pod / terminate_pod.
  t.ok(((await rest("GET", "/v2/pods")).body!.pods as Json[]).some((p) => p.id === pod.body!.id));
  t.equal((await rest("GET", `/v2/pods/${pod.body!.id}`)).status, 200);
  t.equal((await rest("POST", `/v2/pods/${cpu.body!.id}/action`, { action: "stop" })).status, 200);
  t.equal((await rest("DELETE", `/v2/pods/${cpu.body!.id}`)).status, 204);
  t.equal((await rest("GET", "/v2/pods/nope")).status, 404, "get_pod answers None on 404");

  // create_endpoint with the client's defaults (gpu_ids "AMPERE_16", QUEUE_DELAY 4, workers 0..3, idle 5).
  const made = await rest("POST", "/v2/serverless", {
    name: "py-endpoint", templateId: tpl.body!.id, type: "QUEUE", gpu: { pools: ["AMPERE_16"], count: 1 },
    workers: { min: 0, max: 3, idleTimeout: 5 }, scaling: { type: "QUEUE_DELAY", queueDelay: 4 }, flashboot: "OFF",
  });
  t.equal(made.status, 201, JSON.stringify(made.body));
  const endpointId = made.body!.id as string;
  // get_endpoints (REST and GraphQL).
  t.ok(((await rest("GET", "/v2/serverless")).body!.endpoints as Json[]).some((e) => e.id === endpointId));
  t.ok(((await graphql(pythonEndpointsQuery)).myself.endpoints as Json[]).some((e) => e.id === endpointId));
  // update_endpoint_template.
  const tpl2 = await rest("POST", "/v2/templates", { name: "py-worker-2", image: "ghcr.io/me/worker:2", disk: 10, serverless: true });
  t.match((await rest("PATCH", `/v2/serverless/${endpointId}`, { templateId: tpl2.body!.id })).body, { id: endpointId, templateId: tpl2.body!.id });

  // The Python client's Endpoint and Job on the new endpoint (runpod/endpoint/runner.py's
  // RunPodClient: Content-Type JSON and Bearer on every request, json=None → no body).
  async function py(method: "GET" | "POST", path: string, data?: unknown): Promise<Json> {
    const res = await request(`${emulator.serverlessUrl}/v2/${path}`, {
      method, headers: { "content-type": "application/json", authorization: `Bearer ${KEY}` }, ...(data !== undefined ? { body: JSON.stringify(data) } : {}),
    });
    t.ok(res.statusCode < 400, `${method} ${path}: ${res.statusCode}`);
    return (await res.body.json()) as Json;
  }
  const pyJob = await py("POST", `${endpointId}/run`, { input: { op: "echo", n: 10 } });
  t.match(pyJob, { id: String, status: "IN_QUEUE" });
  t.match(await py("POST", `${endpointId}/runsync`, { input: { op: "echo", n: 11 } }), { status: "COMPLETED", output: { op: "echo", n: 11 } });
  let pyStatus = await py("GET", `${endpointId}/status/${pyJob.id}`);
  for (let i = 0; i < 50 && pyStatus.status !== "COMPLETED"; i++) pyStatus = await py("GET", `${endpointId}/status/${pyJob.id}`);
  t.match(pyStatus, { status: "COMPLETED", output: { op: "echo", n: 10 } }, "status, then output");
  const pyStream = await py("POST", `${endpointId}/run`, { input: { op: "stream", chunks: 1, bytes: 2, ms: 10 } });
  let partial = await py("GET", `${endpointId}/stream/${pyStream.id}`);
  for (let i = 0; i < 50 && partial.stream.length === 0; i++) partial = await py("GET", `${endpointId}/stream/${pyStream.id}`);
  t.same(partial.stream.map((c: Json) => c.output), ["ab"], "stream yields chunk['output']");
  const pyLong = await py("POST", `${endpointId}/run`, { input: { op: "sleep", ms: 600_000 } });
  t.match(await py("POST", `${endpointId}/cancel/${pyLong.id}`), { id: pyLong.id, status: "CANCELLED" });
  t.match(await py("GET", `${endpointId}/health`), { jobs: Object, workers: Object });
  t.match(await py("POST", `${endpointId}/purge-queue`), { removed: Number });

  // Every JS SDK function on the new endpoint.
  const log = console.log;
  console.log = () => undefined; // the SDK prints each poll
  t.teardown(() => {
    console.log = log;
  });
  const sdkBase = `${emulator.serverlessUrl}/v2`;
  const ep = runpodSdk(KEY, { baseUrl: sdkBase }).endpoint(endpointId)!;
  const queued = await ep.run({ input: { op: "echo", n: 1 } });
  t.match(queued, { id: String, status: "IN_QUEUE" });
  t.match(await ep.runSync({ input: { op: "echo", n: 2 } }, 20_000), { status: "COMPLETED", output: { op: "echo", n: 2 } });
  t.match(await ep.statusSync(queued.id, 20_000), { id: queued.id, status: "COMPLETED", output: { op: "echo", n: 1 } });
  t.match(await ep.status(queued.id), { id: queued.id, status: "COMPLETED" });
  const streaming = await ep.run({ input: { op: "stream", chunks: 2, bytes: 3, ms: 1000 } });
  const chunks: unknown[] = [];
  for await (const c of ep.stream(streaming.id)) chunks.push(c);
  t.same(chunks, [{ output: "abc" }, { output: "abc" }]);
  const long = await ep.run({ input: { op: "sleep", ms: 600_000 } });
  t.match(await ep.cancel(long.id), { id: long.id, status: "CANCELLED" });
  t.match(await ep.health(), { jobs: { completed: Number }, workers: { idle: Number } });
  t.match(await ep.purgeQueue(), { removed: Number, status: String });
  // The module-level (curried) exports take the base URL, key and endpoint id themselves.
  const direct = (await run(sdkBase, KEY, endpointId, { input: { op: "echo", n: 3 } }, 3000)) as Json;
  t.match(await runSync(sdkBase, KEY, endpointId, { input: { op: "echo", n: 4 } }, 20_000), { status: "COMPLETED" });
  t.match(await status(sdkBase, KEY, endpointId, direct.id, 3000), { id: direct.id });
  const s2: unknown[] = [];
  for await (const c of stream(sdkBase, KEY, endpointId, (await run(sdkBase, KEY, endpointId, { input: { op: "stream", chunks: 1, bytes: 2, ms: 10 } }, 3000)).id, 0)) s2.push(c);
  t.same(s2, [{ output: "ab" }]);
  t.match(await health(sdkBase, KEY, endpointId, 3000), { jobs: Object });
  t.match(await purgeQueue(sdkBase, KEY, endpointId, 3000), { status: String });

  // Delete with a job in flight: it ends CANCELLED; the id then answers 404 (the SDK throws).
  const inflight = await ep.run({ input: { op: "sleep", ms: 600_000 } });
  const del = await rest("DELETE", `/v2/serverless/${endpointId}`);
  t.equal(del.status, 204);
  await t.rejects(ep.status(inflight.id), "job routes of a deleted endpoint answer 404");
  // delete_container_registry_auth after its template is gone.
  t.equal((await rest("DELETE", `/v2/registries/${reg.body!.id}`)).status, 409, "still used by a template");
  t.equal((await rest("DELETE", `/v2/templates/${tpl.body!.id}`)).status, 204);
  t.equal((await rest("DELETE", `/v2/registries/${reg.body!.id}`)).status, 204);
});
