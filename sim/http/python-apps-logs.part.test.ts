// `runpod.apps.logs` against `cpsim serve` with RUNPOD_HAPI_URL set to its base URL: pod_logs
// (`GET {HAPI}/v1/pod/{id}/logs?type=…`, read with resp.json()) and stream_pod_logs (`stream=true`,
// `type`, `tail`, `since`; the body read line by line, `data:` lines parsed as JSON), each request
// as aiohttp puts it on the wire (the client's Bearer header, then aiohttp's own; params encoded as
// yarl encodes them). The lines are the REST pod-log route's. Then the same calls from a real
// python3 with aiohttp, when this machine has it (skipped, saying so, otherwise).
import http from "node:http";
import t from "tap";
import { request } from "undici";
import { openApiDocument } from "../api/openapi.ts";
import { startEmulator } from "./index.ts";
import { pythonHas, runPython } from "./test-helpers.ts";

const KEY = "cpsim_alpha_full_7f3a9c2e41b6d805";
const BETA = "cpsim_beta_full_91d4e6a2c7b3f058";
type Json = Record<string, any>;

interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}

/** One GET with exactly these headers, in aiohttp's order; Host added as aiohttp adds it. */
function get(base: string, path: string, key: string | undefined): Promise<Answer> {
  const url = new URL(path, base);
  const headers: Array<[string, string]> = [
    ...(key === undefined ? [] : ([["Authorization", `Bearer ${key}`]] as Array<[string, string]>)),
    ["Accept", "*/*"],
    ["Accept-Encoding", "gzip, deflate"],
    ["User-Agent", "Python/3.11 aiohttp/3.9.5"],
  ];
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method: "GET", setHost: true, headers: Object.fromEntries(headers), agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, contentType: String(res.headers["content-type"] ?? ""), text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** stream_pod_logs' reading: each line stripped; `data:` lines parsed as JSON, others (ids, comments) skipped. */
const dataFrames = (text: string): Json[] =>
  text.split("\n").map((l) => l.trim()).filter((l) => l.startsWith("data:")).map((l) => JSON.parse(l.slice("data:".length).trim()) as Json);

t.test("pod_logs and stream_pod_logs as aiohttp sends them", async (t) => {
  const emulator = await startEmulator({ clock: "real", speed: 1000, seed: 1, logger: false });
  t.teardown(() => emulator.close());
  const HAPI = emulator.baseUrl; // RUNPOD_HAPI_URL
  const rest = async (method: "GET" | "POST", path: string, body?: unknown, key = KEY) => {
    const res = await request(`${emulator.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
    return { status: res.statusCode, text: await res.body.text() };
  };
  const made = await rest("POST", "/v2/pods", { name: "logs", image: "ubuntu:22.04", gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 } });
  t.equal(made.status, 201, made.text);
  const podId = JSON.parse(made.text).id as string;
  for (let i = 0; i < 3000 && JSON.parse((await rest("GET", `/v2/pods/${podId}`)).text).status !== "RUNNING"; i++) await new Promise((r) => setTimeout(r, 10));
  // The REST pod-log route's lines: the host API serves the same ones.
  const restLines = dataFrames((await rest("GET", `/v2/pods/${podId}/logs`)).text);
  t.equal(restLines.length, 2, "created, then its container's start");

  // pod_logs(pod_id): params={"type": "all"}; resp.json() needs application/json.
  const snap = await get(HAPI, `/v1/pod/${podId}/logs?type=all`, KEY);
  t.equal(snap.status, 200, snap.text);
  t.match(snap.contentType, /^application\/json/);
  t.same(JSON.parse(snap.text), { container: [], system: restLines.map((l) => l.line) }, "{container, system}: no container runs");
  t.same(JSON.parse((await get(HAPI, `/v1/pod/${podId}/logs?type=system`, KEY)).text), { container: [], system: restLines.map((l) => l.line) });
  t.same(JSON.parse((await get(HAPI, `/v1/pod/${podId}/logs?type=container`, KEY)).text), { container: [], system: [] });

  // stream_pod_logs(pod_id): params={"stream": "true", "type": "all", "tail": "100"}.
  const stream = await get(HAPI, `/v1/pod/${podId}/logs?stream=true&type=all&tail=100`, KEY);
  t.equal(stream.status, 200);
  t.equal(stream.contentType, "text/event-stream");
  const frames = dataFrames(stream.text);
  t.same(frames, restLines, "the REST route's lines, as {ts, source, line}");
  t.ok(frames.every((f) => Object.keys(f).sort().join() === "line,source,ts"));
  t.same(dataFrames((await get(HAPI, `/v1/pod/${podId}/logs?stream=true&type=all&tail=1`, KEY)).text), restLines.slice(-1));
  t.same(dataFrames((await get(HAPI, `/v1/pod/${podId}/logs?stream=true&type=container&tail=100`, KEY)).text), []);
  // since: datetime.isoformat() of an aware time; yarl sends its "+" as %2B.
  const since = restLines[1]!.ts.replace("Z", "+00:00").replace("+", "%2B");
  t.same(dataFrames((await get(HAPI, `/v1/pod/${podId}/logs?stream=true&type=all&tail=100&since=${since}`, KEY)).text), restLines.slice(1), "since takes lines at or after it");
  t.same(dataFrames((await get(HAPI, `/v1/pod/${podId}/logs?stream=true&type=all&tail=100&since=2999-01-01T00:00:00Z`, KEY)).text), []);
  t.same(JSON.parse((await get(HAPI, `/v1/pod/${podId}/logs?type=all&tail=1`, KEY)).text), { container: [], system: restLines.slice(-1).map((l) => l.line) }, "tail applies to a snapshot too");

  // Refusals: resp.raise_for_status() raises on each; the detail says what was wrong.
  for (const [query, word] of [["type=stdout", "type"], ["stream=yes", "stream"], ["stream=true&tail=abc", "tail"], ["stream=true&tail=5001", "tail"], ["stream=true&since=yesterday", "since"]] as const) {
    const bad = await get(HAPI, `/v1/pod/${podId}/logs?${query}`, KEY);
    t.equal(bad.status, 400, query);
    t.match(JSON.parse(bad.text), { detail: new RegExp(`^${word} `) }, query);
  }
  t.equal((await get(HAPI, "/v1/pod/nope/logs?type=all", KEY)).status, 404, "an unknown pod");
  t.equal((await get(HAPI, `/v1/pod/${podId}/logs?type=all`, BETA)).status, 404, "another account's pod: as unknown");
  t.equal((await get(HAPI, `/v1/pod/${podId}/logs?type=all`, undefined)).status, 401, "no key");
});

t.test("a job's workerId, as monitor.py's PodLogStream follows it during a dev call", async (t) => {
  const emulator = await startEmulator({ clock: "manual", seed: 1, logger: false });
  t.teardown(() => emulator.close());
  const HAPI = emulator.baseUrl;
  const call = async (base: string, method: "GET" | "POST", path: string, body?: unknown) => {
    const res = await request(`${base}${path}`, { method, headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
    return JSON.parse(await res.body.text()) as Json;
  };
  // A dev endpoint with a standing worker; a job runs on it; on_status reads its workerId.
  const made = await call(emulator.baseUrl, "POST", "/v2/serverless", { name: "dev-shop-chat", image: "runpod/queue:py3.12-latest", gpu: { pools: ["ADA_24"], count: 1 }, workers: { min: 1, max: 1, idleTimeout: 60 }, scaling: { type: "QUEUE_DELAY", queueDelay: 4 } });
  await call(emulator.baseUrl, "POST", "/_sim/clock/advance", { ms: 60_000 });
  const job = await call(emulator.serverlessUrl, "POST", `/v2/${made.id}/run`, { input: { op: "sleep", ms: 120_000 } });
  await call(emulator.baseUrl, "POST", "/_sim/clock/advance", { ms: 1_000 });
  const status = await call(emulator.serverlessUrl, "GET", `/v2/${made.id}/status/${job.id}`);
  t.equal(status.status, "IN_PROGRESS");
  const workerId = status.workerId as string;
  t.match(workerId, /^[a-z0-9]+$/);
  const restLines = dataFrames(await (await request(`${emulator.baseUrl}/v2/serverless/${made.id}/workers/${workerId}/logs`, { headers: { authorization: `Bearer ${KEY}` } })).body.text());
  t.match(restLines, [{ source: "system", line: new RegExp(`^Worker ${workerId} is RUNNING`) }]);
  // stream_pod_logs(worker_id, log_type="container", tail=1000, since=...) and the snapshot fallback.
  const stream = await get(HAPI, `/v1/pod/${workerId}/logs?stream=true&type=container&tail=1000&since=2026-01-01T00%3A00%3A00%2B00%3A00`, KEY);
  t.equal(stream.status, 200, stream.text);
  t.same(dataFrames(stream.text), [], "no container lines: no container runs");
  t.same(JSON.parse((await get(HAPI, `/v1/pod/${workerId}/logs?type=all`, KEY)).text), { container: [], system: restLines.map((l) => l.line) }, "the worker's line, as the REST worker-log route has it");
  t.equal((await get(HAPI, `/v1/pod/${workerId}/logs?type=all`, BETA)).status, 404, "another account's worker: as unknown");
});

t.test("the OpenAPI document describes the host-API log route", async (t) => {
  const op = openApiDocument("test").paths["/v1/pod/{podId}/logs"]!["get"] as Json;
  t.same(op.parameters.map((p: Json) => p.name), ["podId", "type", "stream", "tail", "since"]);
  t.same(Object.keys(op.responses["200"].content).sort(), ["application/json", "text/event-stream"]);
});

const aiohttp = pythonHas("aiohttp");

// Only aiohttp calls with runpod/apps/logs.py's arguments: no code of the client.
const SCRIPT = String.raw`
import asyncio, json, sys, aiohttp
hapi, key, pod = sys.argv[1], sys.argv[2], sys.argv[3]
headers = {"Authorization": f"Bearer {key}"}
async def main():
    url = f"{hapi}/v1/pod/{pod}/logs"
    out = {}
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as s:
        async with s.get(url, params={"type": "all"}, headers=headers) as r:
            r.raise_for_status()
            out["snapshot"] = {k: v or [] for k, v in (await r.json()).items()}
    frames = []
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30, sock_read=10)) as s:
        async with s.get(url, params={"stream": "true", "type": "all", "tail": "100", "since": "2000-01-01T00:00:00+00:00"}, headers=headers) as r:
            r.raise_for_status()
            async for raw in r.content:
                line = raw.decode("utf-8", "replace").strip()
                if line.startswith("data:"):
                    frames.append(json.loads(line[len("data:"):].strip()))
    out["frames"] = frames
    async with aiohttp.ClientSession() as s:
        async with s.get(url, params={"type": "bogus"}, headers=headers) as r:
            out["bad_status"] = r.status
    print(json.dumps(out))
asyncio.run(main())
`;

t.test("runpod.apps.logs' calls from python3 with aiohttp", { skip: aiohttp.ok ? false : `python3 with aiohttp is not available here (${aiohttp.why})` }, async (t) => {
  const emulator = await startEmulator({ clock: "manual", seed: 2, logger: false });
  t.teardown(() => emulator.close());
  const res = await request(`${emulator.baseUrl}/v2/pods`, { method: "POST", headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" }, body: JSON.stringify({ name: "py", image: "ubuntu:22.04", cpu: { id: "cpu3c", vcpuCount: 2 } }) });
  const podId = ((await res.body.json()) as Json).id as string;
  const run = await runPython(SCRIPT, [emulator.baseUrl, KEY, podId]);
  t.equal(run.status, 0, run.stderr);
  const out = JSON.parse(run.stdout) as Json;
  t.match(out.snapshot, { container: [], system: [new RegExp(`^Pod ${podId} created on host`)] });
  t.match(out.frames, [{ source: "system", line: new RegExp(`^Pod ${podId} created`), ts: String }], "since with +00:00 reaches the server intact");
  t.equal(out.bad_status, 400);
});
