/**
 * Test traffic: what a well-behaved service does with the API, through plain fetch (pods,
 * catalog, an error read) and through the official JS SDK (runpod-sdk, unmodified: run, status,
 * runSync, stream, cancel, health, purge-queue). The same session runs against a clean emulator
 * (no finding) and against one with a defect (the defect's rule found).
 */
import runpodSdk from "runpod-sdk";
import type { Setup } from "./setup.ts";

/**
 * Creates a CPU pod as a client that does not know the flavor's vCPU counts would: the smallest
 * count the target takes (a seed of the open-choice space may offer 8 and up, or 2, 8 and 32).
 */
async function createCpuPod(base: string, headers: Record<string, string>, body: Record<string, unknown>): Promise<{ id: string }> {
  let last = "";
  for (const vcpuCount of [2, 4, 8, 16, 32]) {
    const res = await fetch(`${base}/v2/pods`, { method: "POST", headers, body: JSON.stringify({ ...body, cpu: { id: "cpu3c", vcpuCount } }) });
    last = `${res.status} ${await res.text()}`;
    if (res.status === 201) return JSON.parse(last.slice(4)) as { id: string };
  }
  throw new Error(`no vCPU count of cpu3c was taken: ${last}`);
}

export async function restSession(s: Setup): Promise<void> {
  const base = s.proxy.baseUrl;
  const headers = { authorization: `Bearer ${s.key}`, "content-type": "application/json" };
  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`, { headers });
    return { status: res.status, json: (await res.text().then((t) => (t ? JSON.parse(t) : undefined))) as Record<string, unknown> };
  };
  await get("/v2/catalog/gpus");
  await get("/v2/catalog/cpus");
  const pod = await createCpuPod(base, headers, { name: "proxy-test", image: "ubuntu:22.04" });
  for (let i = 0; i < 3; i++) await get(`/v2/pods/${pod.id}`);
  await get("/v2/pods");
  const deleted = await fetch(`${base}/v2/pods/${pod.id}`, { method: "DELETE", headers });
  await deleted.arrayBuffer();
  // Read after the delete, twice: a terminated pod stays TERMINATED.
  await get(`/v2/pods/${pod.id}`);
  await get(`/v2/pods/${pod.id}`);
  await get("/v2/pods");
  // An error answer the client provokes honestly: a pod that does not exist.
  await get("/v2/pods/no-such-pod");
}

export async function jobSession(s: Setup): Promise<void> {
  const log = console.log;
  console.log = () => undefined; // the SDK prints each poll
  try {
    const endpoint = runpodSdk(s.key, { baseUrl: `${s.proxy.serverlessUrl}/v2` }).endpoint("conformance");
    if (endpoint === null) throw new Error("no endpoint");
    const queued = await endpoint.run({ input: { op: "echo", n: 1 } });
    let status = await endpoint.status(queued.id);
    // Until it finishes, however busy the machine: a pause between reads, a bound on their count.
    for (let i = 0; i < 6000 && status.status !== "COMPLETED"; i++) {
      await new Promise((r) => setTimeout(r, 20));
      status = await endpoint.status(queued.id);
    }
    await endpoint.runSync({ input: { op: "sleep", ms: 50 } }, 5000);
    const streaming = await endpoint.run({ input: { op: "stream", chunks: 3, bytes: 5, ms: 20 } });
    for await (const chunk of endpoint.stream(streaming.id)) void chunk;
    const long = await endpoint.run({ input: { op: "sleep", ms: 600_000 } });
    await endpoint.cancel(long.id);
    await endpoint.health();
    await endpoint.purgeQueue();
  } finally {
    console.log = log;
  }
}

/** GraphQL as a plain client sends it (the key in the `api_key` query): its pods with their env and runtime, the GPU types' stock. */
export async function graphqlSession(s: Setup): Promise<void> {
  const url = `${s.proxy.baseUrl}/graphql?api_key=${encodeURIComponent(s.key)}`;
  // A pod of its own, with an environment, for the pod reads to show.
  const headers = { authorization: `Bearer ${s.key}`, "content-type": "application/json" };
  await createCpuPod(s.proxy.baseUrl, headers, { name: "gql", image: "ubuntu:22.04", env: { MODE: "test" } });
  const ask = async (query: string) => void (await (await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query }) })).arrayBuffer());
  await ask("{ myself { pods { id name env runtime { uptimeInSeconds } } } }");
  await ask("{ gpuTypes { id lowestPrice(input: {gpuCount: 1}) { uninterruptablePrice stockStatus availableGpuCounts } } }");
}

/** A client that forgot its key once, on a REST read and on a job endpoint. */
export async function keylessSession(s: Setup): Promise<void> {
  await (await fetch(`${s.proxy.baseUrl}/v2/pods`)).arrayBuffer();
  await (await fetch(`${s.proxy.serverlessUrl}/v2/conformance/health`)).arrayBuffer();
}
