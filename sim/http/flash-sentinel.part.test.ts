// A deployed Flash resource called as runpod/apps/targets.py's SentinelTarget calls it: POST
// {endpoint_url_base}/flash/runsync (or /run) with the job payload and the X-Flash-App,
// X-Flash-Environment and X-Flash-Endpoint headers, then GET /flash/status/{id} with the same
// headers until the job is final (_wait_terminal). The endpoint is the one `flash deploy` bound to
// that environment (deploy.py's saveEndpoint with flashEnvironmentId); a name nothing matches is
// a 404 (the client's EndpointNotFound). A `--state` session replays the sentinel's jobs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import * as D from "../api/graphql/python-apps-documents.ts";
import { startEmulator } from "./index.ts";
import { call } from "./test-helpers.ts";

const KEY = "cpsim_alpha_full_7f3a9c2e41b6d805";
const BETA_KEY = "cpsim_beta_full_91d4e6a2c7b3f058";

async function graphql(base: string, query: string, variables: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await fetch(`${base}/graphql`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${KEY}` }, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as { data?: Record<string, any>; errors?: { message: string }[] };
  if (body.errors) throw new Error(body.errors[0]!.message);
  return body.data!;
}

/** flash deploy up to one endpoint, "chat", deployed to shop/production. */
async function deploy(base: string): Promise<string> {
  const app = (await graphql(base, D.MUTATION_CREATE_FLASH_APP, { input: { name: "shop" } })).createFlashApp;
  const env = (await graphql(base, D.MUTATION_CREATE_FLASH_ENVIRONMENT, { input: { flashAppId: app.id, name: "production" } })).createFlashEnvironment;
  const input = {
    name: "chat", flashEnvironmentId: env.id, workersMin: 1, workersMax: 3, idleTimeout: 60, scalerType: "QUEUE_DELAY", scalerValue: 4, executionTimeoutMs: 600000,
    template: { name: "shop-chat-template", imageName: "runpod/queue:py3.12-latest", containerDiskInGb: 30, dockerArgs: "", env: [{ key: "FLASH_RESOURCE_NAME", value: "chat" }] },
    gpuIds: "ADA_24,AMPERE_16", gpuCount: 1,
  };
  return (await graphql(base, D.MUTATION_SAVE_ENDPOINT, { input })).saveEndpoint.id as string;
}

/** SentinelTarget._sentinel_headers: _headers() plus the three names. */
const sentinelHeaders = (key: string, app: string, env: string, endpoint: string) => ({
  authorization: `Bearer ${key}`, "content-type": "application/json", "user-agent": "RunPod-Python-SDK/1.9.0",
  "x-flash-app": app, "x-flash-environment": env, "x-flash-endpoint": endpoint,
});

t.test("SentinelTarget.invoke and submit reach the endpoint deployed under that name", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cpsim-flash-sentinel-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const emu = await startEmulator({ clock: "manual", seed: 5, state: dir, logger: false });
  const endpointId = await deploy(emu.baseUrl);
  await call(emu.baseUrl, "POST", "/_sim/clock/advance", { headers: { authorization: `Bearer ${KEY}` }, body: { ms: 60_000 } });
  const headers = sentinelHeaders(KEY, "shop", "production", "chat");

  // invoke: runsync, then status polls until final.
  // The manual clock moves while runsync waits.
  let settled = false;
  const pending = call(emu.serverlessUrl, "POST", "/v2/flash/runsync", { headers, body: { input: { op: "echo", value: 7 } } })
    .finally(() => { settled = true; });
  // Advance once the runsync is parked (a count, not a time); an early answer ends the loop too.
  while (emu.stats().waits === 0 && !settled) await new Promise((r) => setTimeout(r, 5));
  await call(emu.baseUrl, "POST", "/_sim/clock/advance", { headers: { authorization: `Bearer ${KEY}` }, body: { ms: 60_000 } });
  const sync = await pending;
  t.equal(sync.status, 200, JSON.stringify(sync.body));
  let data = sync.body as { id: string; status: string; output?: unknown };
  t.match(data, { id: String, status: /^(COMPLETED|IN_QUEUE|IN_PROGRESS)$/ });
  for (let i = 0; i < 20 && data.status !== "COMPLETED"; i++) {
    await call(emu.baseUrl, "POST", "/_sim/clock/advance", { headers: { authorization: `Bearer ${KEY}` }, body: { ms: 5_000 } });
    data = (await call(emu.serverlessUrl, "GET", `/v2/flash/status/${data.id}`, { headers })).body as typeof data;
  }
  t.match(data, { status: "COMPLETED", output: { value: 7 } }, "the endpoint's handler ran it");

  // submit: run, answered with the job id.
  const run = await call(emu.serverlessUrl, "POST", "/v2/flash/run", { headers, body: { input: { op: "echo", value: 8 } } });
  t.match(run, { status: 200, body: { id: String, status: "IN_QUEUE" } });
  const direct = await call(emu.serverlessUrl, "GET", `/v2/${endpointId}/status/${run.body.id}`, { headers: { authorization: `Bearer ${KEY}` } });
  t.match(direct, { status: 200, body: { id: run.body.id } }, "the same job on the endpoint's own id");

  // Job.cancel and Job.stream through the sentinel (the newest targets.py's cancel_job, stream_job).
  t.match(await call(emu.serverlessUrl, "GET", `/v2/flash/stream/${run.body.id}`, { headers }), { status: 200, body: { status: String } });
  t.match(await call(emu.serverlessUrl, "POST", `/v2/flash/cancel/${run.body.id}`, { headers }), { status: 200, body: { id: run.body.id, status: "CANCELLED" } });

  // What does not resolve is 404, which the client reads as EndpointNotFound.
  for (const [label, h] of [
    ["another name", sentinelHeaders(KEY, "shop", "production", "embed")],
    ["another environment", sentinelHeaders(KEY, "shop", "staging", "chat")],
    ["another account's app", sentinelHeaders(BETA_KEY, "shop", "production", "chat")],
  ] as const) {
    t.equal((await call(emu.serverlessUrl, "POST", "/v2/flash/run", { headers: h, body: { input: { op: "echo" } } })).status, 404, label);
  }
  t.equal((await call(emu.serverlessUrl, "POST", "/v2/flash/run", { headers: { authorization: `Bearer ${KEY}` }, body: { input: {} } })).status, 404, "without the headers");
  const before = (await call(emu.serverlessUrl, "GET", `/v2/flash/status/${run.body.id}`, { headers })).body;
  await emu.close();

  // The journal keeps the sentinel's headers: a restart replays to the same job.
  const again = await startEmulator({ clock: "manual", seed: 5, state: dir, logger: false });
  t.teardown(() => again.close());
  t.same((await call(again.serverlessUrl, "GET", `/v2/flash/status/${run.body.id}`, { headers })).body, before, "the same job after a restart");
});
