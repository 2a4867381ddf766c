/**
 * The official clients' traffic through the proxy to the emulator, grouped by client: the JS SDK
 * (runpod-sdk, unmodified) and the Python client's requests as runpod-python 1.12 sends them, as
 * recorded from the real client run against the emulator (`npm run official-python`, see
 * docs/development.md): runpod/api/graphql.py sends every GraphQL call (every function of
 * runpod/api/ctl_commands.py: users, GPUs, pods GPU and CPU, templates, endpoints, registry
 * credentials) as a POST of {"query"} with the key as `Authorization: Bearer`, its own User-Agent,
 * `Accept-Encoding: gzip, deflate` and an Accept of any type; runpod/endpoint/runner.py (requests) sends
 * `Content-Type: application/json` and the Bearer key on every job call, GETs included, cancel and
 * purge-queue as POSTs with an empty body, runsync without `wait`, a job's status read once a second
 * until final, and stream reads; runpod/endpoint/asyncio (aiohttp, its own User-Agent) the same
 * calls with `X-Request-ID: <job id>` on a job's status, stream and cancel. Python is not run here:
 * the requests are rebuilt with its documents (sim/api/graphql) and headers, no code of it. The
 * quirks each makes are the client findings listed here; docs/proxy.md quotes them.
 */
import t from "tap";
import {
  pythonDeleteRegistryAuthMutation,
  pythonDeployMutation,
  pythonEndpointMutation,
  pythonEndpointsQuery,
  pythonGpuQuery,
  pythonGpuTypesQuery,
  pythonPodQuery,
  pythonPodsQuery,
  pythonResumeMutation,
  pythonSaveRegistryAuthMutation,
  pythonStopMutation,
  pythonTemplateMutation,
  pythonTerminateMutation,
  pythonUpdateEndpointTemplateMutation,
  pythonUpdateRegistryAuthMutation,
  pythonUserMutation,
  pythonUserQuery,
} from "../../sim/api/graphql/index.ts";
import { emulatorBehindProxy, describe } from "../test-support/proxy/setup.ts";
import { jobSession } from "../test-support/proxy/traffic.ts";

const PYTHON_GRAPHQL_UA = "RunPod-Python-SDK/1.12.0 (Linux 6.8; x86_64) Language/Python 3.12.3";
const PYTHON_REQUESTS_UA = "python-requests/2.32.3";
const PYTHON_AIOHTTP_UA = "Python/3.12 aiohttp/3.13.2";

t.test("the official clients through the proxy: the Python client's GraphQL key as a Bearer header is its one quirk; the JS SDK has none; the target none", async (t) => {
  const s = await emulatorBehindProxy(t);
  type Data = { data?: Record<string, Record<string, unknown> | null>; errors?: unknown[] };
  const gql = async (query: string): Promise<Record<string, unknown>> => {
    const res = await fetch(`${s.proxy.baseUrl}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": PYTHON_GRAPHQL_UA, authorization: `Bearer ${s.key}`, "accept-encoding": "gzip, deflate", accept: "*/*" },
      body: JSON.stringify({ query }),
    });
    const body = (await res.json()) as Data;
    t.notOk(body.errors, `no errors: ${JSON.stringify(body).slice(0, 300)}`);
    return Object.values(body.data ?? {})[0] ?? {};
  };
  await gql(pythonUserQuery);
  await gql(pythonUserMutation("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGcpsim user@host"));
  await gql(pythonGpuTypesQuery);
  await gql(pythonGpuQuery("NVIDIA GeForce RTX 4090"));
  await gql(pythonGpuQuery("NVIDIA GeForce RTX 4090")); // create_pod checks the GPU first
  const podId = (await gql(pythonDeployMutation({ name: "quirks", imageName: "ubuntu:22.04", gpuTypeId: "NVIDIA GeForce RTX 4090", gpuCount: 1, volumeInGb: 0, containerDiskInGb: 10, minVcpuCount: 1, minMemoryInGb: 1, dockerArgs: "", volumeMountPath: "/runpod-volume" }))).id as string;
  await gql(pythonPodsQuery());
  await gql(pythonPodQuery(podId));
  await gql(pythonStopMutation(podId));
  await gql(pythonResumeMutation(podId, 1));
  await gql(pythonTerminateMutation(podId));
  // create_pod(name, image): a CPU pod without instanceId, the client's default template id.
  const cpuId = (await gql(pythonDeployMutation({ name: "quirks-cpu", imageName: "ubuntu:22.04", containerDiskInGb: 10, dockerArgs: "", volumeMountPath: "/runpod-volume" }))).id as string;
  await gql(pythonTerminateMutation(cpuId));
  const regId = (await gql(pythonSaveRegistryAuthMutation("quirks-reg", "user", "secret"))).id as string;
  await gql(pythonUpdateRegistryAuthMutation(regId, "user2", "secret2"));
  await gql(pythonDeleteRegistryAuthMutation(regId));
  const templateId = (await gql(pythonTemplateMutation({ name: "quirks-tpl", imageName: "ubuntu:22.04", dockerStartCmd: 'bash -c "sleep 1"', ports: "8888/http", env: { K: "v" }, isServerless: true }))).id as string;
  const template2 = (await gql(pythonTemplateMutation({ name: "quirks-tpl2", imageName: "ubuntu:22.04", volumeInGb: 5, volumeMountPath: "/data" }))).id as string;
  const endpointId = (await gql(pythonEndpointMutation({ name: "quirks-ep", templateId, gpuCount: 1 }))).id as string;
  await gql(pythonEndpointsQuery);
  await gql(pythonUpdateEndpointTemplateMutation(endpointId, template2));

  const job = (ua: string, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
    fetch(`${s.proxy.serverlessUrl}/v2/conformance/${path}`, {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${s.key}`, "user-agent": ua, "accept-encoding": "gzip, deflate", accept: "*/*", ...extra },
      ...(body !== undefined ? { body: JSON.stringify(body) } : method === "POST" ? { body: "" } : {}),
    }).then(async (r) => (await r.json()) as { id?: string; status?: string; stream?: unknown[] });
  const untilFinal = async (read: () => Promise<{ status?: string }>) => {
    for (let i = 0, st: string | undefined = "IN_QUEUE"; i < 600 && (st === "IN_QUEUE" || st === "IN_PROGRESS"); i++) {
      await new Promise((r) => setTimeout(r, 50));
      st = (await read()).status;
    }
  };
  for (const [ua, xid] of [[PYTHON_REQUESTS_UA, false], [PYTHON_AIOHTTP_UA, true]] as const) {
    const withId = (id?: string): Record<string, string> => (xid && id ? { "x-request-id": id } : {});
    const queued = await job(ua, "POST", "run", { input: { op: "echo", n: 1 } });
    await untilFinal(() => job(ua, "GET", `status/${queued.id}`, undefined, withId(queued.id)));
    if (!xid) await job(ua, "POST", "runsync", { input: { op: "echo", n: 2 } });
    const streamed = await job(ua, "POST", "run", { input: { op: "stream", chunks: 3, bytes: 4 } });
    await untilFinal(() => job(ua, "GET", `stream/${streamed.id}`, undefined, withId(streamed.id)));
    const long = await job(ua, "POST", "run", { input: { op: "sleep", ms: 600_000 } });
    await job(ua, "POST", `cancel/${long.id}`, undefined, withId(long.id));
    await job(ua, "GET", "health");
    await job(ua, "POST", "purge-queue");
  }

  await jobSession(s); // the JS SDK, as it is

  const { report, lateFindings } = await s.proxy.stop();
  const all = [...s.findings, ...lateFindings];
  t.same(describe(all.filter((f) => f.side === "target")), [], "no finding on the target's side");
  const quirks = (report.clients ?? []).filter((c) => c.findings > 0).map((c) => ({ client: c.userAgent, rules: c.rules.map((r) => r.id) }));
  t.same(quirks, [{ client: PYTHON_GRAPHQL_UA, rules: ["graphql.auth-api-key"] }], "the Python client's GraphQL key in a Bearer header, and nothing else of either client");
  const clients = new Map((report.clients ?? []).map((c) => [c.userAgent.split("/")[0], c.exchanges]));
  t.ok((clients.get("python-requests") ?? 0) >= 8, "the Python job calls were judged");
  t.ok((clients.get("Python") ?? 0) >= 7, "the Python asyncio job calls were judged");
  t.ok((clients.get("RunPod-Python-SDK") ?? 0) >= 21, "every GraphQL call of the Python client was judged");
  t.ok((clients.get("RunPod-JS-SDK") ?? 0) >= 8, `the JS SDK's calls were judged (clients: ${[...clients.keys()].join(", ")})`);
});
