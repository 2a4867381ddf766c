/**
 * The emulator with the real platform behind it, over real HTTP on loopback: a session across
 * every route family validated against the OpenAPI document the server serves, the same session
 * replayed on a second server with the same seed giving byte-identical answers, rate-limit
 * windows rolled over and results expired with the manual clock, a webhook delivered to a
 * loopback receiver, and a plain GraphQL client running the spec's operations.
 */
import t from "tap";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import { GraphQLClient, gql } from "graphql-request";
import { request } from "undici";
import { startEmulator, type EmulatorHandle } from "./index.ts";
import { matchRoute } from "../api/routes.ts";
import type { HttpMethod } from "../api/types.ts";

const ALPHA = "cpsim_alpha_full_7f3a9c2e41b6d805";
const BETA = "cpsim_beta_full_91d4e6a2c7b3f058";

interface Answer {
  readonly method: HttpMethod;
  readonly path: string;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
}

async function call(base: string, method: HttpMethod, path: string, options: { key?: string; json?: unknown } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.json !== undefined) headers["content-type"] = "application/json";
  const res = await request(new URL(path, base), {
    method,
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const text = await res.body.text();
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(", ") : v;
  return { method, path: path.split("?")[0], status: res.statusCode, headers: flat, text };
}

const advance = (base: string, ms: number) => call(base, "POST", "/_sim/clock/advance", { json: { ms } });

/** A fixed session across every route family; returns every answer in order. */
async function session(base: string): Promise<Answer[]> {
  const out: Answer[] = [];
  const push = async (a: Promise<Answer>) => {
    const answer = await a;
    out.push(answer);
    return answer;
  };
  const created = await push(
    call(base, "POST", "/v2/pods", { key: ALPHA, json: { name: "s", image: "img", gpu: { id: "NVIDIA GeForce RTX 4090" }, cloud: "COMMUNITY" } }),
  );
  const podId = (JSON.parse(created.text) as { id: string }).id;
  await push(call(base, "POST", "/v2/pods", { key: ALPHA, json: { name: "", image: "img" } }));
  await push(call(base, "POST", "/v2/pods", { key: ALPHA, json: { name: "cpu", image: "img", cpu: { id: "cpu3c", vcpuCount: 4 } } }));
  await push(call(base, "GET", "/v2/pods", { key: ALPHA }));
  await advance(base, 120_000);
  await push(call(base, "GET", `/v2/pods/${podId}`, { key: ALPHA }));
  await push(call(base, "PATCH", `/v2/pods/${podId}`, { key: ALPHA, json: { name: "renamed" } }));
  await push(call(base, "POST", `/v2/pods/${podId}/action`, { key: ALPHA, json: { action: "stop" } }));
  await push(call(base, "POST", `/v2/pods/${podId}/action`, { key: ALPHA, json: { action: "stop" } }));
  await push(call(base, "GET", `/v2/pods/${podId}`, { key: BETA }));
  await push(call(base, "DELETE", `/v2/pods/${podId}`, { key: ALPHA }));
  await push(call(base, "GET", "/v2/catalog/gpus?cloud=COMMUNITY", { key: ALPHA }));
  await push(call(base, "GET", "/v2/catalog/cpus", { key: ALPHA }));
  await push(call(base, "GET", "/v2/catalog/datacenters", { key: ALPHA }));
  await push(call(base, "GET", "/v2/networkvolumes", { key: ALPHA }));
  await push(call(base, "GET", "/v2/templates", { key: ALPHA }));
  await push(call(base, "GET", "/v2/endpoints", { key: ALPHA }));
  const run = await push(call(base, "POST", "/v2/conformance/run", { key: ALPHA, json: { input: { op: "sleep", ms: 500 } } }));
  const jobId = (JSON.parse(run.text) as { id: string }).id;
  await push(call(base, "GET", `/v2/conformance/status/${jobId}`, { key: ALPHA }));
  await advance(base, 10_000);
  await push(call(base, "GET", `/v2/conformance/status/${jobId}`, { key: ALPHA }));
  const streamed = await push(call(base, "POST", "/v2/conformance/run", { key: ALPHA, json: { input: { op: "stream", chunks: 3, bytes: 5, ms: 10 } } }));
  await advance(base, 10_000);
  await push(call(base, "GET", `/v2/conformance/stream/${(JSON.parse(streamed.text) as { id: string }).id}`, { key: ALPHA }));
  const failed = await push(call(base, "POST", "/v2/conformance/run", { key: ALPHA, json: { input: { op: "fail", message: "boom" } } }));
  await advance(base, 10_000);
  await push(call(base, "POST", `/v2/conformance/retry/${(JSON.parse(failed.text) as { id: string }).id}`, { key: ALPHA }));
  await push(call(base, "POST", `/v2/conformance/cancel/${jobId}`, { key: ALPHA }));
  await push(call(base, "POST", "/v2/conformance/purge-queue", { key: ALPHA }));
  await push(call(base, "GET", "/v2/conformance/health", { key: ALPHA }));
  await push(call(base, "POST", "/v2/conformance/run", { key: ALPHA, json: { input: {}, extra: 1 } }));
  await push(call(base, "GET", "/v2/conformance/status/no-such-job", { key: ALPHA }));
  await push(call(base, "POST", "/graphql", { key: ALPHA, json: { query: "{ myself { pods { id name desiredStatus env } } }" } }));
  await push(call(base, "GET", "/v2/pods"));
  return out;
}

function withoutDate(a: Answer): unknown {
  const { date: _date, ...headers } = a.headers;
  return { ...a, headers };
}

t.test("a session validates against the served OpenAPI document and replays byte for byte", async (t) => {
  const a = await startEmulator({ clock: "manual", seed: 11, port: 0 });
  const b = await startEmulator({ clock: "manual", seed: 11, port: 0 });
  t.teardown(async () => {
    await a.close();
    await b.close();
  });
  const doc = JSON.parse((await call(a.baseUrl, "GET", "/openapi.json")).text) as {
    openapi: string;
    paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Record<string, { schema: object }> }> }>>;
    components: { schemas: Record<string, object> };
  };
  t.equal(doc.openapi, "3.1.0");
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajvFormats.default(ajv);
  ajv.addSchema({ $id: "doc", components: doc.components });
  const byOp = new Map<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>();
  for (const item of Object.values(doc.paths)) for (const op of Object.values(item)) byOp.set(op.operationId, op);

  const answers = await session(a.baseUrl);
  let validated = 0;
  for (const answer of answers) {
    const match = matchRoute(answer.method, answer.path);
    t.equal(match.kind, "match", `${answer.method} ${answer.path} is a route`);
    if (match.kind !== "match") continue;
    t.ok(answer.status < 500, `${answer.method} ${answer.path} answered ${answer.status}`);
    const op = byOp.get(match.route.op);
    t.ok(op, `the document describes ${match.route.op}`);
    const response = op?.responses[String(answer.status)];
    t.ok(response, `the document describes ${answer.status} of ${match.route.op}`);
    const content = response?.content;
    if (!content) continue;
    const [type, media] = Object.entries(content)[0];
    t.equal(answer.headers["content-type"]?.split(";")[0], type, `${match.route.op} ${answer.status} content type`);
    const schema = JSON.parse(JSON.stringify(media.schema).replaceAll("#/components", "doc#/components"));
    const validate = ajv.compile(schema);
    const ok = validate(JSON.parse(answer.text));
    t.ok(ok, `${match.route.op} ${answer.status} body matches the document: ${ajv.errorsText(validate.errors)}`);
    validated++;
  }
  t.ok(validated >= 25, `validated ${validated} bodies`);

  const replay = await session(b.baseUrl);
  t.same(replay.map(withoutDate), answers.map(withoutDate), "same seed, same session: identical answers");
});

t.test("rate-limit windows roll over with the manual clock", async (t) => {
  const emu = await startEmulator({ clock: "manual", seed: 1, port: 0 });
  t.teardown(() => emu.close());
  let last: Answer | undefined;
  for (let i = 0; i < 60; i++) last = await call(emu.baseUrl, "GET", "/v2/pods", { key: BETA });
  t.equal(last?.status, 200);
  t.match(last?.headers.ratelimit, /^"minute";r=0;t=\d+, "hour";r=2940;t=\d+, "day";r=49940;t=\d+$/);
  t.equal(last?.headers["ratelimit-policy"], '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400');
  const denied = await call(emu.baseUrl, "GET", "/v2/pods", { key: BETA });
  t.equal(denied.status, 429);
  t.equal(denied.headers["content-type"], "application/problem+json");
  t.match(JSON.parse(denied.text).detail, /minute window/);
  const retryAfter = Number(denied.headers["retry-after"]);
  t.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60);
  await advance(emu.baseUrl, (retryAfter - 1) * 1000);
  t.equal((await call(emu.baseUrl, "GET", "/v2/pods", { key: BETA })).status, 429, "still spent a second before the reset");
  await advance(emu.baseUrl, 1000);
  const again = await call(emu.baseUrl, "GET", "/v2/pods", { key: BETA });
  t.equal(again.status, 200, "the next window has room");
  t.match(again.headers.ratelimit, /^"minute";r=59;t=60, /);
  // The other account never noticed.
  t.equal((await call(emu.baseUrl, "GET", "/v2/pods", { key: ALPHA })).status, 200);
});

t.test("a run result expires 30 virtual minutes after completion", async (t) => {
  const emu = await startEmulator({ clock: "manual", seed: 2, port: 0 });
  t.teardown(() => emu.close());
  const run = await call(emu.baseUrl, "POST", "/v2/conformance/run", { key: ALPHA, json: { input: { n: 1 } } });
  const id = (JSON.parse(run.text) as { id: string }).id;
  await advance(emu.baseUrl, 60_000);
  const done = JSON.parse((await call(emu.baseUrl, "GET", `/v2/conformance/status/${id}`, { key: ALPHA })).text);
  t.equal(done.status, "COMPLETED");
  t.same(done.output, { n: 1 });
  await advance(emu.baseUrl, 29 * 60_000);
  t.equal((await call(emu.baseUrl, "GET", `/v2/conformance/status/${id}`, { key: ALPHA })).status, 200, "kept before 30 minutes");
  await advance(emu.baseUrl, 2 * 60_000);
  t.equal((await call(emu.baseUrl, "GET", `/v2/conformance/status/${id}`, { key: ALPHA })).status, 404, "gone after");
});

t.test("a webhook receives the final job, retried after a failure", async (t) => {
  const received: { attempt: number; body: unknown }[] = [];
  let attempts = 0;
  const receiver = createServer((req: IncomingMessage, res) => {
    let data = "";
    req.on("data", (c) => (data += c));
    req.on("end", () => {
      attempts++;
      received.push({ attempt: attempts, body: JSON.parse(data) });
      res.statusCode = attempts === 1 ? 500 : 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const emu: EmulatorHandle = await startEmulator({ clock: "manual", seed: 3, port: 0 });
  t.teardown(async () => {
    await emu.close();
    receiver.close();
  });
  const run = await call(emu.baseUrl, "POST", "/v2/conformance/run", { key: ALPHA, json: { input: { hello: "hook" }, webhook: hook } });
  const id = (JSON.parse(run.text) as { id: string }).id;
  await advance(emu.baseUrl, 60_000);
  t.equal(attempts, 1, "the first delivery happened when the job finished");
  await advance(emu.baseUrl, 10_000);
  t.equal(attempts, 2, "a failed delivery is retried");
  t.equal(received.length, 2);
  t.match(received[1].body, { id, status: "COMPLETED", output: { hello: "hook" } });
  await advance(emu.baseUrl, 60_000);
  t.equal(attempts, 2, "no more deliveries after a success");
});

t.test("a plain GraphQL client runs the spec's operations", async (t) => {
  const emu = await startEmulator({ clock: "manual", seed: 4, port: 0 });
  t.teardown(() => emu.close());
  const client = new GraphQLClient(`${emu.baseUrl}/graphql?api_key=${ALPHA}`);
  const types = await client.request<{ gpuTypes: { id: string; lowestPrice: { stockStatus: string; availableGpuCounts: number[] } }[] }>(gql`
    query {
      gpuTypes {
        id
        displayName
        memoryInGb
        secureCloud
        communityCloud
        lowestPrice(input: { gpuCount: 1 }) {
          uninterruptablePrice
          stockStatus
          availableGpuCounts
        }
      }
    }
  `);
  t.ok(types.gpuTypes.length >= 12);
  for (const g of types.gpuTypes) t.ok(["High", "Medium", "Low", "None"].includes(g.lowestPrice.stockStatus), g.id);
  const deployed = await client.request<{ podFindAndDeployOnDemand: { id: string; env: string[]; machine: { podHostId: string } } }>(
    gql`
      mutation Deploy($input: PodFindAndDeployOnDemandInput!) {
        podFindAndDeployOnDemand(input: $input) {
          id
          imageName
          env
          machineId
          machine {
            podHostId
          }
        }
      }
    `,
    {
      input: {
        cloudType: "ALL",
        gpuCount: 1,
        volumeInGb: 20,
        containerDiskInGb: 10,
        minVcpuCount: 2,
        minMemoryInGb: 8,
        gpuTypeId: "NVIDIA GeForce RTX 4090",
        name: "gql",
        imageName: "runpod/pytorch",
        dockerArgs: "",
        ports: "8888/http",
        volumeMountPath: "/workspace",
        env: [{ key: "A", value: "1" }],
      },
    },
  );
  const pod = deployed.podFindAndDeployOnDemand;
  t.same(pod.env, ["A=1"]);
  await advance(emu.baseUrl, 180_000);
  const stopped = await client.request<{ podStop: { desiredStatus: string } }>(gql`mutation { podStop(input: { podId: "${pod.id}" }) { id desiredStatus } }`);
  t.equal(stopped.podStop.desiredStatus, "EXITED");
  const resumed = await client.request<{ podResume: { desiredStatus: string } }>(
    gql`mutation { podResume(input: { podId: "${pod.id}", gpuCount: 1 }) { id desiredStatus imageName } }`,
  );
  t.equal(resumed.podResume.desiredStatus, "RUNNING");
  const mine = await client.request<{ myself: { pods: { id: string }[] } }>(gql`{ myself { pods { id name runtime { uptimeInSeconds } } } }`);
  t.ok(mine.myself.pods.some((p) => p.id === pod.id));
  await t.rejects(new GraphQLClient(`${emu.baseUrl}/graphql?api_key=wrong`).request(gql`{ myself { pods { id } } }`), /401|Unauthorized|not valid/);
});
