// The REST-era Python client's log and worker calls (runpod/api/ctl_commands.py and rest.py):
// get_pod_logs / iter_pod_logs (GET /v2/pods/{id}/logs as text/event-stream, with tail, since,
// source and Last-Event-ID), get_endpoint_workers (GET /v2/serverless/{id}/workers) and
// get_endpoint_worker_logs / iter_endpoint_worker_logs, with the client's headers; the events
// are parsed the way rest.py's _parse_event_stream parses them.
import t from "tap";
import { request } from "undici";
import { openApiDocument } from "../api/openapi.ts";
import { startEmulator } from "./index.ts";

const KEY = "cpsim_alpha_full_7f3a9c2e41b6d805";
const BETA = "cpsim_beta_full_91d4e6a2c7b3f058";
type Json = Record<string, any>;

/** rest.py's _parse_event_stream: events ending in a blank line, `id`/`event` kept, `data` lines joined. */
function parseEventStream(text: string): Array<Record<string, string>> {
  const out: Array<Record<string, string>> = [];
  let event: Record<string, string> = {};
  let data: string[] = [];
  for (const line of text.replaceAll("\r\n", "\n").split("\n")) {
    if (line === "") {
      if (data.length > 0) out.push({ ...event, data: data.join("\n") });
      event = {};
      data = [];
      continue;
    }
    if (line.startsWith(":")) continue;
    const at = line.indexOf(":");
    const field = at < 0 ? line : line.slice(0, at);
    let value = at < 0 ? "" : line.slice(at + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "id" || field === "event") event[field] = value;
  }
  return out;
}

t.test("pod logs, endpoint workers and worker logs as the REST-era client reads them", async (t) => {
  const emulator = await startEmulator({ clock: "real", speed: 1000, seed: 1, logger: false });
  t.teardown(() => emulator.close());
  const base = `${emulator.baseUrl}/`;
  const headers = (key = KEY) => ({ accept: "application/json", "content-type": "application/json", "user-agent": "RunPod-Python-SDK/test", authorization: `Bearer ${key}` });
  async function rest(method: "GET" | "POST", path: string, json?: unknown): Promise<{ status: number; body: Json }> {
    const res = await request(new URL(path.slice(1), base), { method, headers: headers(), ...(json ? { body: JSON.stringify(json) } : {}) });
    return { status: res.statusCode, body: (await res.body.json()) as Json };
  }
  // read_event_stream: Accept text/event-stream, Last-Event-ID to resume.
  async function events(path: string, params: Record<string, string> = {}, lastEventId?: string, key = KEY) {
    const url = new URL(path.slice(1), base);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    const res = await request(url, { method: "GET", headers: { ...headers(key), accept: "text/event-stream", ...(lastEventId ? { "last-event-id": lastEventId } : {}) } });
    const text = await res.body.text();
    return { status: res.statusCode, type: String(res.headers["content-type"]), text, events: parseEventStream(text) };
  }
  const entries = (e: { events: Array<Record<string, string>> }): Json[] => e.events.map((x) => ({ ...(JSON.parse(x.data!) as Json), id: x.id }));

  const pod = await rest("POST", "/v2/pods", { name: "logs", startSsh: true, image: "ubuntu:22.04", disk: 10, gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 } });
  t.equal(pod.status, 201, JSON.stringify(pod.body));
  let seen = pod.body;
  for (let i = 0; i < 3000 && seen.status !== "RUNNING"; i++) {
    await new Promise((r) => setTimeout(r, 10));
    seen = (await rest("GET", `/v2/pods/${pod.body.id}`)).body;
  }
  t.equal(seen.status, "RUNNING");

  // get_pod_logs(pod_id): no params.
  const all = await events(`/v2/pods/${pod.body.id}/logs`);
  t.equal(all.status, 200);
  t.equal(all.type, "text/event-stream");
  const lines = entries(all);
  t.equal(lines.length, 2, "created, then its container's start");
  t.match(lines[1], { id: "2", source: "system", line: "Container started (start 1)" });
  t.match(lines[0], { id: "1", source: "system", ts: /^\d{4}-\d\d-\d\dT.*Z$/, line: new RegExp(`Pod ${pod.body.id} created on host .* with 1x RTX 4090; image ubuntu:22.04`) });
  t.ok(lines.every((l) => l.source === "system" && Object.keys(l).sort().join() === "id,line,source,ts"), "no container runs: system lines only");
  t.same(lines.map((l) => l.ts), [...lines.map((l) => l.ts)].sort(), "oldest first");

  // tail, source, since, Last-Event-ID (iter_pod_logs resumes after the last id).
  t.same(entries(await events(`/v2/pods/${pod.body.id}/logs`, { tail: "1" })), lines.slice(-1));
  t.same(entries(await events(`/v2/pods/${pod.body.id}/logs`, { tail: "0" })), []);
  t.same(entries(await events(`/v2/pods/${pod.body.id}/logs`, { source: "container" })), []);
  t.same(entries(await events(`/v2/pods/${pod.body.id}/logs`, { source: "system", since: lines[0].ts })), lines, "since takes lines at or after it; tail is ignored");
  t.same(entries(await events(`/v2/pods/${pod.body.id}/logs`, { since: "2999-01-01T00:00:00+00:00" })), []);
  t.same(entries(await events(`/v2/pods/${pod.body.id}/logs`, {}, "1")), lines.slice(1), "nothing repeated after a reconnect");
  for (const [params, word] of [[{ tail: "5001" }, "tail"], [{ source: "stdout" }, "source"], [{ since: "yesterday" }, "since"]] as const) {
    const bad = await events(`/v2/pods/${pod.body.id}/logs`, params);
    t.equal(bad.status, 400);
    t.match(JSON.parse(bad.text), { detail: new RegExp(word) }, "the client raises QueryError(detail)");
  }
  t.equal((await events("/v2/pods/nope/logs")).status, 404);
  t.equal((await events(`/v2/pods/${pod.body.id}/logs`, {}, undefined, BETA)).status, 404, "another account's pod");

  // create_endpoint with one active worker, then get_endpoint_workers.
  const tpl = await rest("POST", "/v2/templates", { name: "w", image: "me/worker:1", disk: 10, serverless: true });
  const made = await rest("POST", "/v2/serverless", { name: "with-workers", templateId: tpl.body.id, type: "QUEUE", gpu: { pools: ["ADA_24"], count: 1 }, workers: { min: 1, max: 2, idleTimeout: 5 }, scaling: { type: "QUEUE_DELAY", queueDelay: 4 }, flashboot: "OFF" });
  t.equal(made.status, 201, JSON.stringify(made.body));
  let workers: Json[] = [];
  for (let i = 0; i < 3000 && !workers.some((w) => w.status === "IDLE"); i++) {
    await new Promise((r) => setTimeout(r, 10));
    const listed = await rest("GET", `/v2/serverless/${made.body.id}/workers`);
    t.equal(listed.status, 200);
    workers = listed.body.workers;
  }
  t.equal(workers.length, 1, "workers.min 1");
  t.match(workers[0], { id: String, status: "IDLE", gpuTypeId: String, gpuCount: 1, dataCenterId: String, jobId: null });
  t.same((await rest("GET", `/v2/endpoints/${made.body.id}/workers`)).body, { workers }, "the same at /v2/endpoints");
  const foreign = await request(new URL(`v2/serverless/${made.body.id}/workers`, base), { headers: headers(BETA) });
  t.equal(foreign.statusCode, 404);
  await foreign.body.dump();

  // get_endpoint_worker_logs(endpoint_id, worker_id).
  const wl = await events(`/v2/serverless/${made.body.id}/workers/${workers[0]!.id}/logs`);
  t.equal(wl.status, 200);
  t.match(entries(wl), [{ id: "1", source: "system", line: new RegExp(`Worker ${workers[0]!.id} is IDLE on 1x .* in `) }]);
  t.equal((await events(`/v2/serverless/${made.body.id}/workers/nope/logs`)).status, 404);
  t.equal((await events(`/v2/serverless/${made.body.id}/workers/${workers[0]!.id}/logs`, {}, undefined, BETA)).status, 404);
});

t.test("the OpenAPI document describes the log routes as text/event-stream with their query", async (t) => {
  const doc = openApiDocument("test");
  const logs = doc.paths["/v2/pods/{podId}/logs"]!["get"] as Json;
  t.ok(logs.responses["200"].content["text/event-stream"]);
  t.same(logs.parameters.map((p: Json) => p.name), ["podId", "tail", "since", "source"]);
  t.ok((doc.paths["/v2/serverless/{id}/workers/{workerId}/logs"]!["get"] as Json).responses["200"].content["text/event-stream"]);
  t.same((doc.paths["/v2/serverless/{id}/workers"]!["get"] as Json).responses["200"].content["application/json"].schema, { $ref: "#/components/schemas/WorkerList" });
});
