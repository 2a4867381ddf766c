/**
 * Test traffic: what a well-behaved service does with the API, through plain fetch (pods through
 * their life, the catalogs, a GPU pod with the defaults, an error read, a wrong key), through the
 * official JS SDK (runpod-sdk, unmodified: every function it has) and a script on the job endpoints
 * (a failed job read and retried, cancels of a queued and of a running job read back), and GraphQL
 * (pods, GPU types, a deploy, stop and resume). The same sessions run against a clean emulator (no
 * finding) and against one with a defect (the defect's rule found, where the traffic shows it).
 * Every wait is a bounded number of reads with a pause between them, never a time limit.
 */
import runpodSdk, { health, purgeQueue, run, runSync, status, stream } from "runpod-sdk";
import type { Setup } from "./setup.ts";

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
type Json = Record<string, unknown>;

/**
 * Creates a CPU pod as a client that does not know the flavor's vCPU counts would: the smallest
 * count the target takes (a seed of the open-choice space may offer 8 and up, or 2, 8 and 32).
 */
async function createCpuPod(base: string, headers: Record<string, string>, body: Json): Promise<{ id: string }> {
  let last = "";
  for (const vcpuCount of [2, 4, 8, 16, 32]) {
    const res = await fetch(`${base}/v2/pods`, { method: "POST", headers, body: JSON.stringify({ ...body, cpu: { id: "cpu3c", vcpuCount } }) });
    last = `${res.status} ${await res.text()}`;
    if (res.status === 201) return JSON.parse(last.slice(4)) as { id: string };
  }
  throw new Error(`no vCPU count of cpu3c was taken: ${last}`);
}

/** A REST client of one key: each call answers the status and the parsed body. */
function restClient(base: string, key: string) {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    let json: Json | undefined;
    try {
      json = text ? (JSON.parse(text) as Json) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, json };
  };
  /**
   * Reads the pod until its status is one of `want` (at most `reads` reads, 250 ms apart); a
   * RUNNING pod as a client waiting for its ports does, until it shows its runtime (at most 24
   * reads more). Answers the last status.
   */
  const until = async (podId: string, want: readonly string[], reads = 1200) => {
    let seen: unknown;
    for (let i = 0, running = 0; i < reads; i++) {
      const pod = (await call("GET", `/v2/pods/${podId}`)).json;
      seen = pod?.status;
      if (seen === "RUNNING" && want.includes("RUNNING") && (pod?.runtime === null || pod?.runtime === undefined) && ++running < 24) {
        await pause(250);
        continue;
      }
      if (want.includes(seen as string)) break;
      await pause(250);
    }
    return seen;
  };
  return { headers, call, until };
}

export async function restSession(s: Setup): Promise<void> {
  const base = s.proxy.baseUrl;
  const { headers, call, until } = restClient(base, s.key);
  const gpus = (await call("GET", "/v2/catalog/gpus")).json;
  await call("GET", "/v2/catalog/cpus");
  // A CPU pod through its life: read while it provisions, until it runs, renamed, stopped, read stopped, deleted.
  const pod = await createCpuPod(base, headers, { name: "proxy-test", image: "ubuntu:22.04", env: { MODE: "test" } });
  await call("GET", `/v2/pods/${pod.id}`);
  const running = await until(pod.id, ["RUNNING"]);
  await call("GET", "/v2/pods");
  await call("PATCH", `/v2/pods/${pod.id}`, { name: "proxy-test-renamed" });
  if (running === "RUNNING") {
    const stopped = await call("POST", `/v2/pods/${pod.id}/action`, { action: "stop" });
    if (stopped.status >= 200 && stopped.status < 300) await until(pod.id, ["EXITED", "ERROR"]);
    await call("GET", "/v2/pods");
  }
  await call("DELETE", `/v2/pods/${pod.id}`);
  // Read after the delete, twice: a terminated pod stays TERMINATED.
  await call("GET", `/v2/pods/${pod.id}`);
  await call("GET", `/v2/pods/${pod.id}`);
  await call("GET", "/v2/pods");
  // A GPU pod as a client that leaves the cloud, the count and global networking to their defaults: the first type the target places; terminated by its action.
  // The list wherever the target's envelope holds it (`gpus`, `data`, a bare array...).
  const listed = Array.isArray(gpus) ? gpus : Object.values(gpus ?? {}).find(Array.isArray);
  const types = Array.isArray(listed) ? (listed as Json[]).filter((x) => typeof x?.id === "string") : [];
  for (const type of types.slice(0, 6)) {
    const created = await call("POST", "/v2/pods", { name: "proxy-gpu", image: "ubuntu:22.04", gpu: { id: type.id } });
    if (created.status !== 201 || typeof created.json?.id !== "string") continue;
    await call("GET", `/v2/pods/${created.json.id}`);
    await call("POST", `/v2/pods/${created.json.id}/action`, { action: "terminate" });
    break;
  }
  // A GPU pod with global networking, in a data center the catalog says has it.
  const dcs = (await call("GET", "/v2/catalog/datacenters")).json;
  const centers = Array.isArray(dcs) ? dcs : Object.values(dcs ?? {}).find(Array.isArray);
  const networked = Array.isArray(centers) ? (centers as Json[]).filter((c) => c.globalNetwork === true).map((c) => c.id) : [];
  for (const type of networked.length ? types.slice(0, 6) : []) {
    const created = await call("POST", "/v2/pods", { name: "proxy-gn", image: "ubuntu:22.04", gpu: { id: type.id }, globalNetworking: true, dataCenterIds: networked });
    if (created.status !== 201 || typeof created.json?.id !== "string") continue;
    await call("GET", `/v2/pods/${created.json.id}`);
    await call("DELETE", `/v2/pods/${created.json.id}`);
    break;
  }
  // Error answers the client provokes honestly: a pod that does not exist, a key that does not (tried on GraphQL, then on REST).
  await call("GET", "/v2/pods/no-such-pod");
  const wrongKey = "not-a-key-of-anyone";
  await (await fetch(`${base}/graphql?api_key=${wrongKey}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ myself { pods { id } } }" }) })).arrayBuffer();
  await restClient(base, wrongKey).call("GET", "/v2/pods");
}

/** The official JS SDK on the job endpoints: each method of an endpoint, and the package's own functions once each. */
export async function jobSession(s: Setup): Promise<void> {
  const log = console.log;
  console.log = () => undefined; // the SDK prints each poll
  try {
    const url = `${s.proxy.serverlessUrl}/v2`;
    const endpoint = runpodSdk(s.key, { baseUrl: url }).endpoint("conformance");
    if (endpoint === null) throw new Error("no endpoint");
    const queued = await endpoint.run({ input: { op: "echo", n: 1 } });
    let state = await endpoint.status(queued.id);
    // Until it finishes, however busy the machine: a pause between reads, a bound on their count.
    for (let i = 0; i < 6000 && (state.status === "IN_QUEUE" || state.status === "IN_PROGRESS"); i++) {
      await pause(20);
      state = await endpoint.status(queued.id);
    }
    await endpoint.statusSync(queued.id, 1000);
    await endpoint.runSync({ input: { op: "sleep", ms: 50 } }, 5000);
    // A runsync whose wait (1 s) runs out before the job ends: the SDK then waits with status-sync.
    await endpoint.runSync({ input: { op: "sleep", ms: 1500 } }, 1000);
    const streaming = await endpoint.run({ input: { op: "stream", chunks: 3, bytes: 5, ms: 20 } });
    for await (const chunk of endpoint.stream(streaming.id)) void chunk;
    const long = await endpoint.run({ input: { op: "sleep", ms: 600_000 } });
    await endpoint.cancel(long.id);
    await endpoint.health();
    await endpoint.purgeQueue();
    // The package's functions, curried, as a script imports them.
    const echoed = await run(url, s.key, "conformance", { input: { op: "echo", n: 2 } });
    for (let i = 0, st = "IN_QUEUE"; i < 6000 && (st === "IN_QUEUE" || st === "IN_PROGRESS"); i++) {
      st = (await status(url, s.key, "conformance", echoed.id)).status;
      if (st === "IN_QUEUE" || st === "IN_PROGRESS") await pause(20);
    }
    await runSync(url, s.key, "conformance", { input: { op: "echo", n: 3 } }, 5000);
    const streamed = await run(url, s.key, "conformance", { input: { op: "stream", chunks: 2, bytes: 4, ms: 10 } });
    for await (const chunk of stream(url, s.key, "conformance", streamed.id)) void chunk;
    await health(url, s.key, "conformance");
    await purgeQueue(url, s.key, "conformance");
  } finally {
    console.log = log;
  }
}

/**
 * A script on the job endpoints: a job that fails, read until final and retried; a cancel of a
 * queued job and of a running one, each read back until final; a job read while it runs.
 */
export async function jobScriptSession(s: Setup): Promise<void> {
  const headers = { authorization: `Bearer ${s.key}`, "content-type": "application/json" };
  const job = async (method: string, path: string, body?: unknown): Promise<Json> => {
    const res = await fetch(`${s.proxy.serverlessUrl}/v2/conformance/${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    try {
      return { ...(JSON.parse(text) as Json), httpStatus: res.status };
    } catch {
      return { httpStatus: res.status };
    }
  };
  const FINAL = ["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"];
  // The key alone in the header, as the job endpoints' reference also shows it.
  await (await fetch(`${s.proxy.serverlessUrl}/v2/conformance/health`, { headers: { authorization: s.key } })).arrayBuffer();
  /** Reads the job until `done` says so or its answer is no 200 (at most `reads` reads, 50 ms apart). */
  const readUntil = async (id: unknown, done: (st: unknown) => boolean, reads = 600) => {
    let last: Json = {};
    for (let i = 0; i < reads; i++) {
      last = await job("GET", `status/${String(id)}`);
      if (last.httpStatus !== 200 || done(last.status)) break;
      await pause(50);
    }
    return last;
  };
  const failing = await job("POST", "run", { input: { op: "fail", message: "proxy test" } });
  const failed = await readUntil(failing.id, (st) => FINAL.includes(st as string));
  if (failed.status === "FAILED") {
    await job("POST", `retry/${String(failing.id)}`);
    await readUntil(failing.id, (st) => FINAL.includes(st as string));
  }
  // Three jobs for the endpoint's three workers and a fourth that waits behind them: the fourth is
  // cancelled while queued, the first read while it runs (its input echoed) and cancelled running.
  // The first runs long enough that a read on a busy machine still finds it running.
  const FIRST_MS = 5000;
  const first = await job("POST", "run", { input: { op: "sleep", ms: FIRST_MS } });
  await job("POST", "run", { input: { op: "sleep", ms: 1500 } });
  await job("POST", "run", { input: { op: "sleep", ms: 1500 } });
  const fourth = await job("POST", "run", { input: { op: "sleep", ms: 200 } });
  const cancelledQueued = await job("POST", `cancel/${String(fourth.id)}`);
  const seen = await readUntil(first.id, (st) => st !== "IN_QUEUE");
  const runningSince = Date.now();
  const cancelledRunning = seen.status === "IN_PROGRESS" ? await job("POST", `cancel/${String(first.id)}`) : {};
  // Each cancelled job read back 8 times (fewer than a client polling a final job makes), the last
  // past the moment the first job would have ended: it stays CANCELLED.
  const READS = 8;
  for (let i = 0; i < READS; i++) {
    if (cancelledQueued.status === "CANCELLED") await job("GET", `status/${String(fourth.id)}`);
    if (cancelledRunning.status === "CANCELLED") await job("GET", `status/${String(first.id)}`);
    if (i < READS - 1) await pause(Math.max(300, (runningSince + FIRST_MS + 1000 - Date.now()) / (READS - 1 - i)));
  }
}

/**
 * GraphQL as a plain client sends it (the key in the `api_key` query): its pods with their env and
 * runtime, one pod by id, the GPU types with their stock, a deploy, a stop and a resume.
 */
export async function graphqlSession(s: Setup): Promise<void> {
  const url = `${s.proxy.baseUrl}/graphql?api_key=${encodeURIComponent(s.key)}`;
  // A pod of its own, with an environment, for the pod reads to show.
  const headers = { authorization: `Bearer ${s.key}`, "content-type": "application/json" };
  const pod = await createCpuPod(s.proxy.baseUrl, headers, { name: "gql", image: "ubuntu:22.04", env: { MODE: "test" } });
  const ask = async (query: string): Promise<Json> => {
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query }) });
    try {
      return (await res.json()) as Json;
    } catch {
      return {};
    }
  };
  await ask("{ myself { pods { id name env runtime { uptimeInSeconds } } } }");
  await ask(`{ pod(input: {podId: "${pod.id}"}) { id name imageName env machineId desiredStatus runtime { uptimeInSeconds } } }`);
  const gpuTypes = await ask("{ gpuTypes { id displayName memoryInGb secureCloud communityCloud lowestPrice(input: {gpuCount: 1}) { uninterruptablePrice stockStatus availableGpuCounts } } }");
  const data = gpuTypes.data as { gpuTypes?: { id: string }[] } | undefined;
  for (const type of (data?.gpuTypes ?? []).slice(0, 6)) {
    const deployed = await ask(
      `mutation { podFindAndDeployOnDemand(input: {name: "gql-deploy", imageName: "ubuntu:22.04", gpuTypeId: "${type.id}", gpuCount: 1, cloudType: SECURE, containerDiskInGb: 10, env: [{key: "MODE", value: "test"}]}) { id name imageName env machineId machine { podHostId } } }`,
    );
    const id = (deployed.data as { podFindAndDeployOnDemand?: { id?: string } } | undefined)?.podFindAndDeployOnDemand?.id;
    if (!id) continue;
    await ask(`mutation { podStop(input: {podId: "${id}"}) { id desiredStatus } }`);
    await ask(`mutation { podResume(input: {podId: "${id}", gpuCount: 1}) { id desiredStatus imageName } }`);
    await ask(`mutation { podTerminate(input: {podId: "${id}"}) }`);
    break;
  }
}

/** A client that forgot its key once, on a REST read, on a job endpoint and on GraphQL. */
export async function keylessSession(s: Setup): Promise<void> {
  await (await fetch(`${s.proxy.baseUrl}/v2/pods`)).arrayBuffer();
  await (await fetch(`${s.proxy.serverlessUrl}/v2/conformance/health`)).arrayBuffer();
  await (await fetch(`${s.proxy.baseUrl}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ myself { pods { id } } }" }) })).arrayBuffer();
}

/** Every session above, in the order a team's clients would run them. */
export const SESSIONS: readonly ((s: Setup) => Promise<void>)[] = [restSession, jobSession, jobScriptSession, graphqlSession, keylessSession];

/** Every session above, one after the other: the whole traffic of a team's clients. */
export async function allSessions(s: Setup): Promise<void> {
  for (const session of SESSIONS) await session(s);
}
