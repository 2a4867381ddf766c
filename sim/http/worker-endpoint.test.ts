// `--worker-endpoint`: worker processes outside the emulator serve an endpoint's queue through the
// platform's internal worker interface, with the official Python worker's exact requests
// (runpod/serverless/modules/rp_job.py, rp_http.py, rp_ping.py): the URLs from the environment
// the emulator prints with the worker's own `$ID`/`$RUNPOD_POD_ID` substitutions and appended
// query, the raw key in Authorization, JSON posted as a form. A client's job goes IN_QUEUE →
// IN_PROGRESS (on take, on the worker's name) → COMPLETED/FAILED; stream chunks reach /stream;
// cancel reaches the worker's stop poll; a silent worker's job fails. Then a Python loop with
// urllib (when python3 exists) serves a job the same way.
import { spawn, spawnSync } from "node:child_process";
import t, { type Test } from "tap";
import { createServeCommand } from "./cli.ts";
import { type EmulatorHandle, startEmulator } from "./emulator.ts";
import { PlatformBackend } from "./platform-backend.ts";
import { call, sleep } from "./test-helpers.ts";
import { workerEnvironment } from "./worker-environment.ts";

const KEY = "cpsim_alpha_full_7f3a9c2e41b6d805";
const READ_KEY = "cpsim_alpha_read_2c8e5b1f9a3d6047";
const client = { authorization: `Bearer ${KEY}` };
const EP = "my-worker";

/**
 * A worker is lost after `lostAfterMs` of wall-time silence: long by default, so that a busy
 * machine's slow answers never pass for silence; short only where silence is what is tested.
 */
async function serve(t: Test, lostAfterMs = 120_000) {
  const emulator = await startEmulator({
    clock: "real",
    control: false,
    createBackend: (o) => new PlatformBackend({ ...o, workerEndpoints: [EP], workerGateway: { pollWaitMs: 300, lostAfterMs } }),
  });
  t.teardown(() => emulator.close());
  return emulator;
}

/** The requests of the official worker, built from its environment as its modules build them. */
function worker(baseUrl: string, workerId: string, key = KEY) {
  const env = workerEnvironment(baseUrl, EP, key, workerId);
  const getJob = env.RUNPOD_WEBHOOK_GET_JOB.replace("$ID", workerId);
  const done = env.RUNPOD_WEBHOOK_POST_OUTPUT.replace("$RUNPOD_POD_ID", workerId);
  const stream = env.RUNPOD_WEBHOOK_POST_STREAM.replace("$RUNPOD_POD_ID", workerId);
  const ping = env.RUNPOD_WEBHOOK_PING.replace("$RUNPOD_POD_ID", workerId);
  // aiohttp's session headers (runpod.http_client.get_auth_header): the key without a scheme.
  const session = { "content-type": "application/json", authorization: env.RUNPOD_AI_API_KEY, "user-agent": "RunPod-Python-SDK/1.7.0" };
  const get = (url: string) => fetch(url, { headers: session });
  const post = (template: string, jobId: string, data: unknown, isStream: boolean) =>
    fetch(template.replace("$ID", jobId) + `&isStream=${isStream ? "true" : "false"}`, {
      method: "POST",
      // rp_http._transmit: JSON text under a form content type, plus a charset header and the job id.
      headers: { ...session, charset: "utf-8", "content-type": "application/x-www-form-urlencoded", "x-request-id": jobId },
      body: JSON.stringify(data),
    });
  return {
    env,
    take: (inProgress = false) => get(`${getJob}&job_in_progress=${inProgress ? 1 : 0}`),
    takeBatch: (n: number) => get(`${getJob.replace("/job-take/", "/job-take-batch/")}&batch_size=${n}&job_in_progress=0`),
    stop: () => get(getJob.replace("/job-take/", "/job-stop/")),
    ping: (jobIds: string[]) => get(`${ping}&job_id=${encodeURIComponent(jobIds.join(","))}&runpod_version=1.7.0`),
    done: (jobId: string, data: unknown, isStream = false) => post(done, jobId, data, isStream),
    stream: (jobId: string, output: unknown) => post(stream, jobId, { output }, false),
  };
}

t.test("a worker takes, streams and finishes jobs a client sent; status, stream and output follow", async (t) => {
  const emu = await serve(t);
  const url = emu.serverlessUrl;
  const w = worker(emu.baseUrl, "w-1");
  t.match(w.env, { RUNPOD_WEBHOOK_GET_JOB: `${emu.baseUrl}/v2/${EP}/job-take/$ID?gpu=cpsim`, RUNPOD_POD_ID: "w-1", RUNPOD_AI_API_KEY: KEY });

  const started = performance.now();
  const empty = await w.take();
  t.equal(empty.status, 204, "no job: 204 after the long poll");
  t.ok(performance.now() - started >= 200, "the empty take waited");

  // A take waiting when the job arrives gets it at once.
  const pending = w.take();
  await sleep(50);
  const run = await call(url, "POST", `/v2/${EP}/run`, { headers: client, body: { input: { prompt: "hi" } } });
  t.equal(run.status, 200);
  const id = run.body.id as string;
  const taken = await pending;
  t.equal(taken.status, 200);
  t.equal(taken.headers.get("content-type")?.startsWith("application/json"), true);
  t.same(await taken.json(), { id, input: { prompt: "hi" } }, "the job as rp_job.get_job needs it: id and input");
  t.match((await call(url, "GET", `/v2/${EP}/status/${id}`, { headers: client })).body, { status: "IN_PROGRESS", workerId: "w-1" });

  t.equal((await w.ping([id])).status, 200);
  t.equal((await w.stream(id, "a")).status, 200);
  t.equal((await w.stream(id, "b")).status, 200);
  t.match((await call(url, "GET", `/v2/${EP}/stream/${id}`, { headers: client })).body, { status: "IN_PROGRESS", stream: [{ output: "a" }, { output: "b" }] });
  t.equal((await w.done(id, { status: "IN_PROGRESS", output: "half way" })).status, 200, "a progress update keeps the job going");
  t.match((await call(url, "GET", `/v2/${EP}/status/${id}`, { headers: client })).body, { status: "IN_PROGRESS", output: "half way" }, "its status shows it");
  t.equal((await w.done(id, { status: "IN_PROGRESS", output: "x".repeat(70_000) })).status, 413, "a progress update is bounded");
  t.equal((await w.done(id, { output: ["a", "b"] }, true)).status, 200);
  t.match((await call(url, "GET", `/v2/${EP}/status/${id}`, { headers: client })).body, { status: "COMPLETED", output: ["a", "b"], workerId: "w-1" });

  // A handler's exception: the worker posts {"error": "<json>"}.
  const bad = (await call(url, "POST", `/v2/${EP}/run`, { headers: client, body: { input: { n: 2 } } })).body.id as string;
  const badJob = (await (await w.take()).json()) as { id: string };
  t.equal(badJob.id, bad);
  await w.done(bad, { error: JSON.stringify({ error_type: "<class 'ValueError'>", error_message: "boom" }) });
  t.match((await call(url, "GET", `/v2/${EP}/status/${bad}`, { headers: client })).body, { status: "FAILED", error: /boom/ });
  const health = (await call(url, "GET", `/v2/${EP}/health`, { headers: client })).body;
  t.match(health, { jobs: { completed: 1, failed: 1, inQueue: 0, inProgress: 0 } });
});

t.test("batches, a cancel reaching the stop poll, a silent worker's job failing, and refusals", async (t) => {
  // Silence of 3 s loses a worker; w-a pings every 100 ms meanwhile.
  const emu = await serve(t, 3_000);
  const url = emu.serverlessUrl;
  const a = worker(emu.baseUrl, "w-a");
  const b = worker(emu.baseUrl, "w-b");
  const ids: string[] = [];
  for (const n of [1, 2, 3]) ids.push((await call(url, "POST", `/v2/${EP}/run`, { headers: client, body: { input: { n } } })).body.id);
  const batch = await a.takeBatch(2);
  t.equal(batch.status, 200);
  t.same(((await batch.json()) as { id: string }[]).map((j) => j.id), ids.slice(0, 2), "a list, oldest first, no more than asked");
  t.same(await (await b.take()).json(), { id: ids[2], input: { n: 3 } });

  // The client cancels one of w-a's jobs: w-a's stop poll names it; its late done changes nothing.
  t.equal((await call(url, "POST", `/v2/${EP}/cancel/${ids[0]}`, { headers: client })).status, 200);
  const stop = await a.stop();
  t.equal(stop.status, 200);
  t.same(await stop.json(), { jobsToStop: [ids[0]] });
  t.equal((await a.stop()).status, 204, "reported once");
  t.same(await (await a.done(ids[0], { output: "late" })).json(), { recorded: false });
  t.equal((await call(url, "GET", `/v2/${EP}/status/${ids[0]}`, { headers: client })).body.status, "CANCELLED");

  // w-a keeps pinging; w-b goes silent and its job fails.
  // Waits for the failure (bounded so that it cannot hang), not for a time.
  const end = performance.now() + 120_000;
  let silent: { status: string; error?: string } = { status: "" };
  while (performance.now() < end) {
    await a.ping([ids[1]]);
    silent = (await call(url, "GET", `/v2/${EP}/status/${ids[2]}`, { headers: client })).body;
    if (silent.status === "FAILED") break;
    await sleep(100);
  }
  t.match(silent, { status: "FAILED", error: /worker w-b stopped answering/ });
  t.equal((await call(url, "GET", `/v2/${EP}/status/${ids[1]}`, { headers: client })).body.status, "IN_PROGRESS", "the pinging worker keeps its job");
  await a.done(ids[1], { output: 2 });
  t.match((await call(url, "GET", `/v2/${EP}/status/${ids[1]}`, { headers: client })).body, { status: "COMPLETED", output: 2 });

  // A worker that restarts under the same id asks for work with job_in_progress=0: what it held is lost.
  const r = worker(emu.baseUrl, "w-r");
  const held = (await call(url, "POST", `/v2/${EP}/run`, { headers: client, body: { input: { n: 4 } } })).body.id as string;
  t.same(((await (await r.take()).json()) as { id: string }).id, held);
  t.equal((await r.take(true)).status, 204, "job_in_progress=1: it still runs its job");
  t.equal((await call(url, "GET", `/v2/${EP}/status/${held}`, { headers: client })).body.status, "IN_PROGRESS");
  t.equal((await r.take(false)).status, 204);
  t.match((await call(url, "GET", `/v2/${EP}/status/${held}`, { headers: client })).body, { status: "FAILED", error: /w-r asked for new work while this job was still its own/ });

  const plain = (path: string, headers: Record<string, string>) => fetch(`${emu.baseUrl}${path}`, { headers });
  t.equal((await plain(`/v2/${EP}/job-take/x?gpu=cpsim&job_in_progress=0`, {})).status, 401, "no key");
  t.equal((await plain(`/v2/${EP}/job-take/x?gpu=cpsim&job_in_progress=0`, { authorization: "nope" })).status, 401, "unknown key");
  t.equal((await plain(`/v2/${EP}/ping/x?gpu=cpsim`, { authorization: READ_KEY })).status, 403, "a read-only key");
  const other = await plain(`/v2/conformance/job-take/x?gpu=cpsim&job_in_progress=0`, { authorization: KEY });
  t.equal(other.status, 404);
  t.match(await other.json(), { detail: /--worker-endpoint conformance/ });
  t.equal((await plain(`/v2/${EP}/job-take-batch/x?gpu=cpsim&batch_size=0`, { authorization: KEY })).status, 400);
  const notJson = await fetch(`${emu.baseUrl}/v2/${EP}/job-done/w-a/${ids[1]}?isStream=false`, {
    method: "POST",
    headers: { authorization: KEY, "content-type": "application/x-www-form-urlencoded" },
    body: "[1]",
  });
  t.equal(notJson.status, 400);
});

// A worker loop in Python's standard library speaking the same protocol, in its own process (its
// heartbeat with the requests library, as rp_ping sends it, when python3 has requests).
const PY_WORKER = String.raw`
import json, os, urllib.request
wid = os.environ["RUNPOD_POD_ID"]
key = os.environ["RUNPOD_AI_API_KEY"]
def call(url, data=None):
    headers = {"Authorization": key}
    if data is not None:
        headers.update({"Content-Type": "application/x-www-form-urlencoded", "charset": "utf-8"})
    req = urllib.request.Request(url, data=None if data is None else data.encode(), headers=headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.status, r.read()
take = os.environ["RUNPOD_WEBHOOK_GET_JOB"].replace("$ID", wid)
while True:
    status, body = call(take + "&job_in_progress=0")
    if status == 200:
        break
job = json.loads(body)
try:
    # rp_ping's heartbeat: a requests session with the raw key, the job ids and the version as params.
    import requests
    session = requests.Session()
    session.headers.update({"Authorization": key})
    ping = os.environ["RUNPOD_WEBHOOK_PING"].replace("$RUNPOD_POD_ID", wid)
    assert session.get(ping, params={"job_id": job["id"], "runpod_version": "1.7.0"}, timeout=20).status_code == 200
except ImportError:
    pass
out = {"upper": job["input"]["text"].upper()}
stream = os.environ["RUNPOD_WEBHOOK_POST_STREAM"].replace("$RUNPOD_POD_ID", wid).replace("$ID", job["id"])
call(stream + "&isStream=false", json.dumps({"output": "partial"}))
done = os.environ["RUNPOD_WEBHOOK_POST_OUTPUT"].replace("$RUNPOD_POD_ID", wid).replace("$ID", job["id"])
call(done + "&isStream=false", json.dumps({"output": out}))
print(job["id"])
`;

const hasPython = spawnSync("python3", ["--version"], { stdio: "ignore" }).status === 0;

t.test("a Python worker process (urllib) serves a job end to end", { skip: hasPython ? false : "python3 is not installed" }, async (t) => {
  const emu = await serve(t);
  const env = workerEnvironment(emu.baseUrl, EP, KEY, "py-1");
  const child = spawn("python3", ["-c", PY_WORKER], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  t.teardown(() => child.kill());
  await sleep(100);
  const id = (await call(emu.serverlessUrl, "POST", `/v2/${EP}/run`, { headers: client, body: { input: { text: "hello" } } })).body.id as string;
  t.equal(await exited, 0, err);
  t.equal(out.trim(), id);
  t.match((await call(emu.serverlessUrl, "GET", `/v2/${EP}/status/${id}`, { headers: client })).body, { status: "COMPLETED", output: { upper: "HELLO" }, workerId: "py-1" });
  t.match((await call(emu.serverlessUrl, "GET", `/v2/${EP}/stream/${id}`, { headers: client })).body, { status: "COMPLETED", stream: [{ output: "partial" }] });
});

t.test("cpsim serve --worker-endpoint prints the environment a worker needs, which serves a job; bad uses are usage errors", async (t) => {
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: (x: string) => out.push(x), stderr: (x: string) => err.push(x) };
  let stop: () => void = () => undefined;
  let listening: (e: EmulatorHandle) => void = () => undefined;
  const up = new Promise<EmulatorHandle>((r) => (listening = r));
  const command = createServeCommand({ onStopSignal: (s) => ((stop = s), () => undefined), onListening: listening });
  const exit = command.run(["--port", "0", "--json", "--worker-endpoint", "py-queue", "--worker-endpoint", "beta-sdxl"], io);
  const emu = await up;
  const info = JSON.parse(out.join("").split("\n")[0]);
  const BETA = "cpsim_beta_full_91d4e6a2c7b3f058";
  t.same(info.workerEndpoints, [
    { endpointId: "py-queue", environment: workerEnvironment(emu.baseUrl, "py-queue", KEY) },
    { endpointId: "beta-sdxl", environment: workerEnvironment(emu.baseUrl, "beta-sdxl", BETA) },
  ], "a shared endpoint gets the first full key, an account's endpoint that account's");
  const pingAs = (key: string) => fetch(`${emu.baseUrl}/v2/beta-sdxl/ping/w?gpu=cpsim`, { headers: { authorization: key } });
  t.equal((await pingAs(BETA)).status, 200);
  t.equal((await pingAs(KEY)).status, 403, "another account's key may not serve it");
  const env = info.workerEndpoints[0].environment as Record<string, string>;
  const id = (await call(emu.serverlessUrl, "POST", "/v2/py-queue/run", { headers: client, body: { input: { n: 7 } } })).body.id as string;
  const taken = await fetch(`${env.RUNPOD_WEBHOOK_GET_JOB.replace("$ID", env.RUNPOD_POD_ID)}&job_in_progress=0`, { headers: { authorization: env.RUNPOD_AI_API_KEY } });
  t.same(await taken.json(), { id, input: { n: 7 } });
  const doneUrl = env.RUNPOD_WEBHOOK_POST_OUTPUT.replace("$RUNPOD_POD_ID", env.RUNPOD_POD_ID).replace("$ID", id);
  await fetch(`${doneUrl}&isStream=false`, { method: "POST", headers: { authorization: env.RUNPOD_AI_API_KEY, "content-type": "application/x-www-form-urlencoded" }, body: JSON.stringify({ output: 49 }) });
  t.match((await call(emu.serverlessUrl, "GET", `/v2/py-queue/status/${id}`, { headers: client })).body, { status: "COMPLETED", output: 49, workerId: "worker-1" });
  stop();
  t.equal(await exit, 0);

  for (const [argv, message] of [
    [["--worker-endpoint", "x", "--clock", "manual"], /cannot be combined with --clock manual/],
    [["--worker-endpoint", "x", "--speed", "10"], /cannot be combined with --speed/],
    [["--worker-endpoint", "Bad!"], /--worker-endpoint Bad!: the endpoint id must be/],
    [["--worker-endpoint", "a b"], /^--worker-endpoint a b: the endpoint id must be/],
    [["--worker-endpoint", "a=b"], /^--worker-endpoint a=b: the endpoint id must be/],
    [["--worker-endpoint", "x", "--handler", "x=fixtures/handlers/conformance-handler.mjs"], /runs a --handler already/],
  ] as const) {
    // A UsageError: the CLI's main prints it with the usage line and exits 2.
    await t.rejects(createServeCommand().run([...argv], { stdout: () => undefined, stderr: () => undefined }), { name: "UsageError", message }, argv.join(" "));
  }
});
