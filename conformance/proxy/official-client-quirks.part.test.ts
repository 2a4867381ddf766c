/**
 * The official clients' traffic through the proxy to the emulator, grouped by client: the JS SDK
 * (runpod-sdk, unmodified) and the Python client's requests as runpod-python 1.12 builds them
 * (runpod/api/graphql.py: every GraphQL call a POST of {"query"} with the key as
 * `Authorization: Bearer` and its own User-Agent; runpod/endpoint/runner.py: the job calls with
 * `Content-Type: application/json` and the Bearer key, cancel and purge-queue as POSTs without a
 * body, runsync without `wait`, a job's status read once a second until final). The Python client
 * is not installed here: the requests are rebuilt with its documents (sim/api/graphql) and headers,
 * no code of it. The quirks each makes are the client findings listed here; docs/proxy.md quotes them.
 */
import t from "tap";
import { pythonDeployMutation, pythonGpuTypesQuery, pythonPodQuery, pythonPodsQuery, pythonTerminateMutation } from "../../sim/api/graphql/index.ts";
import { emulatorBehindProxy, describe } from "../test-support/proxy/setup.ts";
import { jobSession } from "../test-support/proxy/traffic.ts";

const PYTHON_GRAPHQL_UA = "RunPod-Python-SDK/1.12.0 (Linux 6.8; x86_64) Language/Python 3.12.3";
const PYTHON_REQUESTS_UA = "python-requests/2.32.3";

t.test("the official clients through the proxy: the Python client's GraphQL key as a Bearer header is its one quirk; the JS SDK has none; the target none", async (t) => {
  const s = await emulatorBehindProxy(t);
  const gql = async (query: string) => {
    const res = await fetch(`${s.proxy.baseUrl}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": PYTHON_GRAPHQL_UA, authorization: `Bearer ${s.key}` },
      body: JSON.stringify({ query }),
    });
    return (await res.json()) as { data?: Record<string, { id?: string }> };
  };
  await gql(pythonGpuTypesQuery);
  const deployed = await gql(pythonDeployMutation({ name: "quirks", imageName: "ubuntu:22.04", gpuTypeId: "NVIDIA GeForce RTX 4090" }));
  const podId = Object.values(deployed.data ?? {})[0]?.id;
  await gql(pythonPodsQuery());
  if (podId) {
    await gql(pythonPodQuery(podId));
    await gql(pythonTerminateMutation(podId));
  }

  const job = (method: string, path: string, body?: unknown) =>
    fetch(`${s.proxy.serverlessUrl}/v2/conformance/${path}`, {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${s.key}`, "user-agent": PYTHON_REQUESTS_UA },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }).then(async (r) => (await r.json()) as { id?: string; status?: string });
  const queued = await job("POST", "run", { input: { op: "echo", n: 1 } });
  for (let i = 0, st = queued.status; i < 600 && st !== "COMPLETED"; i++) {
    await new Promise((r) => setTimeout(r, 50));
    st = (await job("GET", `status/${queued.id}`)).status;
  }
  await job("POST", "runsync", { input: { op: "echo", n: 2 } });
  const long = await job("POST", "run", { input: { op: "sleep", ms: 600_000 } });
  await job("POST", `cancel/${long.id}`);
  await job("GET", "health");
  await job("POST", "purge-queue");

  await jobSession(s); // the JS SDK, as it is

  const { report, lateFindings } = await s.proxy.stop();
  const all = [...s.findings, ...lateFindings];
  t.same(describe(all.filter((f) => f.side === "target")), [], "no finding on the target's side");
  const quirks = (report.clients ?? []).filter((c) => c.findings > 0).map((c) => ({ client: c.userAgent, rules: c.rules.map((r) => r.id) }));
  t.same(quirks, [{ client: PYTHON_GRAPHQL_UA, rules: ["graphql.auth-api-key"] }], "the Python client's GraphQL key in a Bearer header, and nothing else of either client");
  const clients = new Map((report.clients ?? []).map((c) => [c.userAgent.split("/")[0], c.exchanges]));
  t.ok((clients.get("python-requests") ?? 0) >= 6, "the Python job calls were judged");
  t.ok((clients.get("RunPod-JS-SDK") ?? 0) >= 8, `the JS SDK's calls were judged (clients: ${[...clients.keys()].join(", ")})`);
});
