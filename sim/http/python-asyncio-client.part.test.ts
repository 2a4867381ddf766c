// The official Python client's asyncio forms against `cpsim serve`, byte for byte as aiohttp
// puts them on the wire: runpod/endpoint/asyncio/asyncio_runner.py's Endpoint (run, health,
// purge_queue) and Job (status, output's polling, stream's polling, cancel), each with the
// headers it sets (Content-Type and Bearer; X-Request-ID on a job's requests) plus aiohttp's own
// (Accept, Accept-Encoding, User-Agent, Content-Length: 0 on a POST without a body), the body
// as Python's json.dumps writes it; and runpod/api/graphql.py's run_graphql_query_async (the
// apps client's transport). aiohttp's resp.json() refuses an answer that is not
// application/json, so every answer's content type is checked too.
import http from "node:http";
import t from "tap";
import { QUERY_SECRETS, MUTATION_CREATE_SECRET, MUTATION_CREATE_FLASH_AUTH_REQUEST, QUERY_FLASH_AUTH_REQUEST_STATUS } from "../api/graphql/python-apps-documents.ts";
import { startEmulator } from "./index.ts";

const KEY = "cpsim_alpha_full_7f3a9c2e41b6d805";
type Json = Record<string, any>;

/** Python's json.dumps with its default separators (", " and ": "), for the values these tests send. */
function pyDumps(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(pyDumps).join(", ")}]`;
  if (v !== null && typeof v === "object") return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${pyDumps(x)}`).join(", ")}}`;
  return JSON.stringify(v);
}

interface Sent {
  readonly status: number;
  readonly contentType: string;
  readonly json: Json;
}

/** One request with exactly these headers (in aiohttp's order) and body; Host is added by node as aiohttp adds it. */
function send(base: string, method: "GET" | "POST", path: string, headers: ReadonlyArray<[string, string]>, body?: string): Promise<Sent> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, setHost: true, headers: Object.fromEntries(headers), agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        try {
          resolve({ status: res.statusCode!, contentType: String(res.headers["content-type"] ?? ""), json: JSON.parse(text) as Json });
        } catch (err) {
          reject(new Error(`${method} ${path}: ${res.statusCode} not JSON: ${text.slice(0, 200)}`));
        }
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** aiohttp's default headers after the request's own. */
const AIOHTTP: ReadonlyArray<[string, string]> = [
  ["Accept", "*/*"],
  ["Accept-Encoding", "gzip, deflate"],
  ["User-Agent", "Python/3.11 aiohttp/3.9.5"],
];

t.test("runpod.endpoint.asyncio: Endpoint and Job as aiohttp sends them", async (t) => {
  const emulator = await startEmulator({ clock: "real", speed: 1000, seed: 1, logger: false });
  t.teardown(() => emulator.close());
  const base = `${emulator.serverlessUrl}/`;
  const endpoint = "alpha-echo";
  const own: Array<[string, string]> = [["Content-Type", "application/json"], ["Authorization", `Bearer ${KEY}`]];
  const jobHeaders = (id: string): Array<[string, string]> => [...own, ["X-Request-ID", id]];
  const json = (s: Sent) => {
    t.match(s.contentType, /^application\/json/, "resp.json() takes it");
    return s.json;
  };

  // Endpoint.run: POST {base}/{id}/run, json={"input": ...}.
  const body = pyDumps({ input: { op: "echo", n: 1, note: "héllo" } });
  t.equal(body, '{"input": {"op": "echo", "n": 1, "note": "héllo"}}');
  const ran = await send(base, "POST", `v2/${endpoint}/run`, [...own, ...AIOHTTP, ["Content-Length", String(Buffer.byteLength(body))]], body);
  t.equal(ran.status, 200);
  const job = json(ran);
  t.match(job, { id: String, status: "IN_QUEUE" });

  // Job.status / Job.output: GET {base}/{id}/status/{job} until COMPLETED or FAILED (is_completed), then once more for output.
  let state = json(await send(base, "GET", `v2/${endpoint}/status/${job.id}`, [...jobHeaders(job.id), ...AIOHTTP]));
  for (let i = 0; i < 3000 && !["COMPLETED", "FAILED", "TIMED_OUT", "CANCELLED"].includes(state.status); i++) {
    await new Promise((r) => setTimeout(r, 10));
    // Some aiohttp versions send Content-Length: 0 on a GET too: both are served alike.
    state = json(await send(base, "GET", `v2/${endpoint}/status/${job.id}`, [...jobHeaders(job.id), ...AIOHTTP, ...(i % 2 ? ([["Content-Length", "0"]] as Array<[string, string]>) : [])]));
  }
  t.match(state, { id: job.id, status: "COMPLETED", output: { op: "echo", n: 1, note: "héllo" } }, "job_state.get('output')");

  // Job.stream: GET {base}/{id}/stream/{job} every second; yields chunk["output"] while not final or chunks remain.
  const streamBody = pyDumps({ input: { op: "stream", chunks: 3, bytes: 2, ms: 1000 } });
  const streaming = json(await send(base, "POST", `v2/${endpoint}/run`, [...own, ...AIOHTTP, ["Content-Length", String(Buffer.byteLength(streamBody))]], streamBody));
  const outputs: unknown[] = [];
  for (let i = 0; i < 200; i++) {
    const partial = json(await send(base, "GET", `v2/${endpoint}/stream/${streaming.id}`, [...jobHeaders(streaming.id), ...AIOHTTP]));
    t.type(partial.status, "string");
    const final = ["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"].includes(partial.status);
    const chunks = (partial.stream ?? []) as Json[];
    if (!final || chunks.length > 0) for (const c of chunks) outputs.push(c.output);
    else break;
    await new Promise((r) => setTimeout(r, 5));
  }
  t.same(outputs, ["ab", "ab", "ab"], "every chunk once, then the loop ends");

  // Job.cancel: POST {base}/{id}/cancel/{job} without a body (aiohttp: Content-Length: 0).
  const longBody = pyDumps({ input: { op: "sleep", ms: 600_000 } });
  const long = json(await send(base, "POST", `v2/${endpoint}/run`, [...own, ...AIOHTTP, ["Content-Length", String(Buffer.byteLength(longBody))]], longBody));
  const cancelled = await send(base, "POST", `v2/${endpoint}/cancel/${long.id}`, [...jobHeaders(long.id), ...AIOHTTP, ["Content-Length", "0"]]);
  t.equal(cancelled.status, 200);
  t.match(json(cancelled), { id: long.id, status: "CANCELLED" });

  // Endpoint.health (GET) and Endpoint.purge_queue (POST, no body).
  const health = await send(base, "GET", `v2/${endpoint}/health`, [...own, ...AIOHTTP]);
  t.equal(health.status, 200);
  t.match(json(health), { jobs: { completed: Number, failed: Number, inProgress: Number, inQueue: Number, retried: Number }, workers: { idle: Number, running: Number } });
  const purged = await send(base, "POST", `v2/${endpoint}/purge-queue`, [...own, ...AIOHTTP, ["Content-Length", "0"]]);
  t.equal(purged.status, 200);
  t.match(json(purged), { removed: Number, status: String });

  // A wrong key: the client's resp.json() still gets JSON (and raises on the missing "id").
  const refused = await send(base, "POST", `v2/${endpoint}/run`, [["Content-Type", "application/json"], ["Authorization", "Bearer nope"], ...AIOHTTP, ["Content-Length", String(Buffer.byteLength(body))]], body);
  t.equal(refused.status, 401);
  t.notOk("id" in refused.json);
});

t.test("run_graphql_query_async: POST /graphql with json={query, variables}", async (t) => {
  const emulator = await startEmulator({ clock: "real", speed: 1000, seed: 1, logger: false });
  t.teardown(() => emulator.close());
  const base = `${emulator.baseUrl}/`;
  const headers = (length: number): Array<[string, string]> => [
    ["Content-Type", "application/json"],
    ["User-Agent", "RunPod-Python-SDK/1.8.0 (Linux 6.1; x86_64) Language/Python 3.11.9"],
    ["Authorization", `Bearer ${KEY}`],
    ...AIOHTTP.filter(([k]) => k !== "User-Agent"),
    ["Content-Length", String(length)],
  ];
  const create = pyDumps({ query: MUTATION_CREATE_SECRET, variables: { input: { name: "TOKEN", value: "v", description: "" } } });
  const made = await send(base, "POST", "graphql", headers(Buffer.byteLength(create)), create);
  t.equal(made.status, 200);
  t.match(made.contentType, /^application\/json/);
  t.match(made.json, { data: { secretCreate: { id: String, name: "TOKEN" } } });
  t.notOk("errors" in made.json, "_check_response raises on any errors key");
  // _build_payload leaves "variables" out when there are none.
  const list = pyDumps({ query: QUERY_SECRETS });
  const listed = await send(base, "POST", "graphql", headers(Buffer.byteLength(list)), list);
  t.same(listed.json, { data: { myself: { secrets: [{ id: made.json.data.secretCreate.id, name: "TOKEN", description: "", createdAt: listed.json.data.myself.secrets[0].createdAt }] } } });
  // No key (allow_anonymous with none set): 401, which the client turns into AuthenticationError.
  const anonymous = await send(base, "POST", "graphql", headers(Buffer.byteLength(list)).filter(([k]) => k !== "Authorization"), list);
  t.equal(anonymous.status, 401);
});

t.test("browser_login without a key: create_auth_request and get_auth_request_status (anonymous=True) complete locally", async (t) => {
  const emulator = await startEmulator({ clock: "manual", seed: 1, logger: false });
  t.teardown(() => emulator.close());
  const base = `${emulator.baseUrl}/`;
  // run_graphql_query_async(anonymous=True): no Authorization header at all.
  const headers = (length: number): Array<[string, string]> => [
    ["Content-Type", "application/json"],
    ["User-Agent", "RunPod-Python-SDK/1.8.0 (Linux 6.1; x86_64) Language/Python 3.11.9"],
    ...AIOHTTP.filter(([k]) => k !== "User-Agent"),
    ["Content-Length", String(length)],
  ];
  const post = (body: string) => send(base, "POST", "graphql", headers(Buffer.byteLength(body)), body);
  const create = pyDumps({ query: MUTATION_CREATE_FLASH_AUTH_REQUEST });
  const made = await post(create);
  t.equal(made.status, 200);
  t.match(made.json, { data: { createFlashAuthRequest: { id: String, status: "PENDING", expiresAt: String } } });
  const id = made.json.data.createFlashAuthRequest.id as string;
  const status = pyDumps({ query: QUERY_FLASH_AUTH_REQUEST_STATUS, variables: { flashAuthRequestId: id } });
  t.match((await post(status)).json, { data: { flashAuthRequestStatus: { status: "PENDING", apiKey: null } } });
  // The emulator approves it after 3 s of model time (here the manual clock moves it).
  await send(base, "POST", "_sim/clock/advance", [["Content-Type", "application/json"], ["Content-Length", "12"]], '{"ms": 3000}');
  const approved = await post(status);
  t.same(approved.json, { data: { flashAuthRequestStatus: { id, status: "APPROVED", expiresAt: made.json.data.createFlashAuthRequest.expiresAt, apiKey: KEY } } }, "browser_login returns this key");
  // The granted key works.
  const list = pyDumps({ query: QUERY_SECRETS });
  t.equal((await send(base, "POST", "graphql", [...headers(Buffer.byteLength(list)), ["Authorization", `Bearer ${approved.json.data.flashAuthRequestStatus.apiKey}`]], list)).status, 200);

  // Nothing else runs without a key: another field, or one beside the login fields, still answers 401.
  t.equal((await post(list)).status, 401);
  const mixed = pyDumps({ query: "mutation { createFlashAuthRequest { id } secretCreate(input: {name: \"X\", value: \"v\"}) { id } }" });
  t.equal((await post(mixed)).status, 401);
  const viaFragment = pyDumps({ query: "query { ...F } fragment F on Query { flashAuthRequestStatus(flashAuthRequestId: \"x\") { id } myself { id } }" });
  t.equal((await post(viaFragment)).status, 401);
  t.equal((await post(pyDumps({ query: "{ flashAuthRequestStatus(" }))).status, 401, "a keyless document that does not parse: 401 as before");
});
