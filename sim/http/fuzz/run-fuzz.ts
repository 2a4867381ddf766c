/**
 * The emulator's own fuzzer (`npm run fuzz`): fast-check draws requests for every operation of
 * the served /openapi.json and for the GraphQL schema, of four kinds: valid (bodies from the
 * operation's schema), mutated (a valid request with one thing broken), hostile (huge, deep,
 * poisoned, malformed) and raw protocol abuse on a socket. Every answer must be below 500 and
 * the server must keep answering; the figures are the number of 5xx answers, crashes (the server
 * stopped answering or threw out of its handlers) and the RSS growth over the run.
 */
import { connect } from "node:net";
import fc from "fast-check";
import { Client } from "undici";
import { graphqlSchema } from "../../api/graphql/index.ts";
import { startEmulator } from "../emulator.ts";
import { hostileDocument, validDocument } from "./graphql-arbitrary.ts";
import { schemaArbitrary } from "./schema-arbitrary.ts";

export interface FuzzOptions {
  /** Requests to send in all. */
  readonly requests: number;
  /** Wall-clock bound in seconds; the run stops at whichever comes first. */
  readonly seconds: number;
  readonly seed: number;
  /** Requests in flight at once. */
  readonly concurrency: number;
  /** Where the first few findings are described (stderr in the command). */
  readonly log?: (line: string) => void;
}

export const defaultFuzzOptions: FuzzOptions = { requests: 100_000, seconds: 600, seed: 1, concurrency: 32 };

export interface FuzzResult {
  readonly requests: number;
  readonly fiveXX: number;
  readonly crashes: number;
  readonly rssGrowthMb: number;
  /** Requests that got no answer within 15 s while the server kept answering others. */
  readonly stalls: number;
  readonly byKind: Readonly<Record<string, number>>;
  readonly seconds: number;
}

interface RequestSpec {
  readonly kind: "valid" | "mutated" | "hostile" | "graphql" | "raw";
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Buffer;
  /** Raw bytes for protocol abuse, sent on a fresh socket. */
  readonly raw?: string | Buffer;
}

const KEYS = {
  load: "cpsim_load_exempt_5b0e8d3a6c1f9247",
  alpha: "cpsim_alpha_full_7f3a9c2e41b6d805",
  alphaRead: "cpsim_alpha_read_2c8e5b1f9a3d6047",
  beta: "cpsim_beta_full_91d4e6a2c7b3f058",
};
const ENDPOINTS = ["conformance", "alpha-echo", "beta-sdxl", "public-flux-1-schnell", "public-llama-3-1-8b-instruct", "no-such-endpoint"];

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly params: readonly { name: string; in: string; schema?: Record<string, unknown> }[];
  readonly body?: fc.Arbitrary<unknown>;
}

/** Ids seen in answers, so that later requests name things that exist. */
class Pools {
  readonly pods: string[] = ["no-such-pod"];
  readonly jobs: string[] = ["no-such-job"];
  add(list: string[], id: string): void {
    if (list.length >= 200) list.splice(1, 1);
    list.push(id);
  }
}

function operationsOf(doc: any): Operation[] {
  const components = doc.components?.schemas ?? {};
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const schema = op.requestBody?.content?.["application/json"]?.schema;
      out.push({ method: method.toUpperCase(), path, params: op.parameters ?? [], ...(schema ? { body: schemaArbitrary(schema, components) } : {}) });
    }
  }
  return out;
}

const keyArb = fc.oneof(
  { weight: 12, arbitrary: fc.constant(`Bearer ${KEYS.load}`) },
  { weight: 2, arbitrary: fc.constantFrom(`Bearer ${KEYS.alpha}`, `Bearer ${KEYS.beta}`, `Bearer ${KEYS.alphaRead}`) },
  { weight: 1, arbitrary: fc.constantFrom("", "Bearer", "Basic abc", "Bearer not-a-key", `bearer ${KEYS.load}`, `Bearer ${KEYS.load} extra`) },
);

/** A job input that the conformance handler understands, small enough to keep the run brisk. */
const jobInput = fc.oneof(
  fc.record({ op: fc.constant("sleep"), ms: fc.integer({ min: 0, max: 5000 }) }),
  fc.record({ op: fc.constant("bytes"), n: fc.integer({ min: 0, max: 200_000 }) }),
  fc.record({ op: fc.constant("stream"), chunks: fc.integer({ min: 0, max: 20 }), bytes: fc.integer({ min: 0, max: 1000 }), ms: fc.integer({ min: 0, max: 100 }) }),
  fc.record({ op: fc.constant("fail"), message: fc.string({ maxLength: 30 }) }),
  fc.record({ op: fc.constant("echo"), x: fc.jsonValue({ maxDepth: 3 }) }),
  fc.jsonValue({ maxDepth: 3 }),
);

const hostileValue = fc.oneof(
  fc.integer({ min: 1, max: 3000 }).map((n) => JSON.parse("[".repeat(Math.min(n, 60)) + "]".repeat(Math.min(n, 60))) as unknown),
  fc.constantFrom(1e308, -1e308, 2 ** 53, -0, 0.1, "", "\u0000", "\ud800", "a".repeat(10_000), null, true, [], {}),
  fc.string({ unit: "binary", maxLength: 50 }),
);

function mutate(body: unknown): fc.Arbitrary<unknown> {
  const obj = body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  const keys = obj ? Object.keys(obj) : [];
  return fc.oneof(
    fc.jsonValue({ maxDepth: 4 }),
    keys.length > 0 ? fc.constantFrom(...keys).map((k) => { const c = { ...obj }; delete c[k]; return c; }) : fc.constant(body),
    keys.length > 0 ? fc.tuple(fc.constantFrom(...keys), hostileValue).map(([k, v]) => ({ ...obj, [k]: v })) : hostileValue,
    fc.tuple(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 })).map(([k, v]) => ({ ...obj, [k]: v })),
  );
}

function fillPath(path: string, pools: Pools, pick: (n: number) => number, junk: string): string {
  return path
    .replace("{podId}", () => (pick(10) === 0 ? junk : pools.pods[pick(pools.pods.length)]!))
    .replace("{jobId}", () => (pick(10) === 0 ? junk : pools.jobs[pick(pools.jobs.length)]!))
    .replace("{endpointId}", () => ENDPOINTS[pick(ENDPOINTS.length)]!)
    .replace("{id}", () => (pick(3) === 0 ? junk : fc.sample(fc.constantFrom("vol-alpha-euro1", "tpl-pytorch", "reg-alpha-ghcr", "alpha-echo", "x"), 1)[0]!));
}

/** Raw bytes no well-behaved client sends. */
const rawArb: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
  fc.constantFrom(
    "GET / HTTP/1.1\r\n\r\n",
    "GET /v2/pods HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
    "GET /v2/pods HTTP/1.1\r\nHost: x\r\n\r\nGET /v2/pods HTTP/1.1\r\nHost: x\r\n\r\n\x00\x01garbage\r\n\r\n",
    "POST /v2/pods HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
    "POST /v2/pods HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n",
    "GET /v2/pods HTTP/9.9\r\nHost: x\r\n\r\n",
    "GET http://evil.example/v2/pods HTTP/1.1\r\nHost: x\r\n\r\n",
    `GET /${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    `GET /v2/pods HTTP/1.1\r\nHost: x\r\n${"X-A: b\r\n".repeat(300)}\r\n`,
    `GET /v2/pods HTTP/1.1\r\nHost: x\r\nX-Big: ${"b".repeat(20_000)}\r\n\r\n`,
    "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{\"qu",
  ),
);

export async function runFuzz(given: Partial<FuzzOptions> = {}): Promise<FuzzResult> {
  const o = { ...defaultFuzzOptions, ...given };
  const log = o.log ?? (() => undefined);
  let crashes = 0;
  const onUncaught = (err: unknown) => {
    crashes++;
    log(`crash: ${(err as Error)?.stack ?? String(err)}`);
  };
  process.on("uncaughtException", onUncaught);
  process.on("unhandledRejection", onUncaught);
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const rssBefore = process.memoryUsage().rss;
  const emulator = await startEmulator({ clock: "real", speed: 100, seed: o.seed, logger: false });
  // Each worker has a connection of its own. An undici client that a hostile exchange left unable
  // to reconnect (seen: no connection, requests queued forever, while fresh connections are
  // served) is replaced, and the request counts as a stall.
  const clients = new Set<Client>();
  const newClient = (): Client => {
    const c = new Client(emulator.baseUrl, { pipelining: 1, headersTimeout: 10_000, bodyTimeout: 10_000 });
    clients.add(c);
    return c;
  };
  const doc = (await (await fetch(`${emulator.baseUrl}/openapi.json`)).json()) as any;
  const ops = operationsOf(doc);
  const pools = new Pools();
  const byKind: Record<string, number> = {};
  let sent = 0;
  let fiveXX = 0;
  let refused = 0;
  /** Requests that got no answer in time (the server itself is probed separately). */
  let stalls = 0;
  const inFlight = new Set<RequestSpec>();
  const started = performance.now();
  const deadline = started + o.seconds * 1000;

  const opArb = fc.constantFrom(...ops);
  const specArb: fc.Arbitrary<(pick: (n: number) => number) => RequestSpec> = fc.oneof(
    {
      weight: 5,
      arbitrary: fc.tuple(opArb, keyArb, jobInput, fc.string({ maxLength: 12 }), fc.nat(1_000_000)).chain(([op, key, input, junk, salt]) =>
        (op.body ?? fc.constant(undefined)).chain((body) =>
          fc.tuple(fc.constant(body), mutate(body), fc.nat(3)).map(([valid, mutated, mode]) => (pick: (n: number) => number) => {
            const isJob = /\/(run|runsync)$/.test(op.path);
            const chosen = mode === 0 ? mutated : isJob && valid !== null && typeof valid === "object" ? { ...(valid as object), input } : valid;
            const query = op.params
              .filter((p) => p.in === "query" && pick(2) === 0)
              .map((p) => `${p.name}=${encodeURIComponent(pick(4) === 0 ? junk : String(salt % 200_000))}`)
              .join("&");
            const path = fillPath(op.path, pools, pick, encodeURIComponent(junk) || "x");
            return <RequestSpec>{
              kind: mode === 0 ? "mutated" : "valid",
              method: op.method,
              path: query ? `${path}?${query}` : path,
              headers: { authorization: key, ...(chosen === undefined ? {} : { "content-type": "application/json" }) },
              ...(chosen === undefined ? {} : { body: JSON.stringify(chosen) }),
            };
          }),
        ),
      ),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.oneof({ weight: 4, arbitrary: validDocument(graphqlSchema) }, hostileDocument(graphqlSchema)), keyArb, fc.boolean(), fc.option(fc.jsonValue({ maxDepth: 2 }))).map(
        ([query, key, get, variables]) => (): RequestSpec =>
          get
            ? { kind: "graphql", method: "GET", path: `/graphql?query=${encodeURIComponent(query.slice(0, 6000))}`, headers: { authorization: key } }
            : { kind: "graphql", method: "POST", path: "/graphql", headers: { authorization: key, "content-type": "application/json" }, body: JSON.stringify({ query, ...(variables === null ? {} : { variables }) }) },
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom("POST", "PATCH", "PUT", "DELETE", "GET", "OPTIONS", "TRACE", "PROPFIND"),
          fc.constantFrom("/v2/pods", "/v2/conformance/run", "/graphql", "/_sim/reset", "/_sim/clock/advance", "/v2/pods/x/action", "/%ZZ", "/v2/../etc/passwd", "/v2/conformance/status/x?ttl=1e309"),
          fc.oneof(
            fc.constant('{"\\u005f_proto__": {"x": 1}}'),
            fc.constant('{"input": {"constructo\\u0072": {"prototype": {"y": 1}}}}'),
            fc.integer({ min: 65, max: 5000 }).map((n) => "[".repeat(n) + "]".repeat(n)),
            fc.constant(Buffer.from([0x7b, 0xff, 0xfe, 0x7d])),
            fc.constant(`{"input": {"op": "bytes", "n": 50000000}}`),
            fc.string({ maxLength: 100 }),
            fc.constant(JSON.stringify({ input: { pad: "x".repeat(200_000) } })),
          ),
          fc.constantFrom("application/json", "text/plain", "application/json; charset=latin1", "multipart/form-data", "application/json; charset=utf-8"),
          keyArb,
        )
        .map(([method, path, body, type, key]) => (): RequestSpec => ({ kind: "hostile", method, path, headers: { authorization: key, "content-type": type }, body })),
    },
    { weight: 1, arbitrary: rawArb.map((raw) => (): RequestSpec => ({ kind: "raw", method: "RAW", path: "", headers: {}, raw })) },
  );

  let batch = 0;
  let queue: ((pick: (n: number) => number) => RequestSpec)[] = [];
  let rng = o.seed >>> 0 || 1;
  const pick = (n: number): number => {
    // xorshift: picks among ids known at send time, from the seed.
    rng ^= rng << 13;
    rng ^= rng >>> 17;
    rng ^= rng << 5;
    return (rng >>> 0) % Math.max(1, n);
  };
  const next = (): RequestSpec | undefined => {
    if (sent >= o.requests || performance.now() > deadline) return undefined;
    if (queue.length === 0) queue = fc.sample(specArb, { seed: o.seed + batch++, numRuns: 500 });
    sent++;
    return queue.pop()!(pick);
  };

  const note = (spec: RequestSpec, status: number, text: string) => {
    byKind[spec.kind] = (byKind[spec.kind] ?? 0) + 1;
    if (status >= 500 && status !== 503) {
      fiveXX++;
      if (fiveXX <= 5) log(`5xx: ${status} for ${spec.method} ${spec.path.slice(0, 200)} ${String(spec.body ?? spec.raw ?? "").slice(0, 300)} -> ${text.slice(0, 300)}`);
    }
    if (status < 300 && text.startsWith("{")) {
      const id = /"id":"([^"]{1,80})"/.exec(text)?.[1];
      if (id !== undefined) pools.add(spec.path.includes("/pods") ? pools.pods : pools.jobs, id);
    }
  };

  const worker = async (): Promise<void> => {
    let client = newClient();
    for (let spec = next(); spec !== undefined; spec = next()) {
      inFlight.add(spec);
      if (spec.raw !== undefined) {
        const reply = await rawSend(emulator.port, spec.raw);
        inFlight.delete(spec);
        if (reply === "refused") refused++;
        note(spec, Number(/^HTTP\/1\.[01] (\d{3})/.exec(reply)?.[1] ?? 0), reply);
        continue;
      }
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), 15_000);
      });
      const exchange = (async () => {
        const res = await client.request({
          method: spec.method as "GET",
          path: spec.path,
          headers: spec.headers,
          ...(spec.body !== undefined && spec.method !== "GET" ? { body: spec.body } : {}),
        });
        return { status: res.statusCode, text: await res.body.text() };
      })();
      try {
        const r = await Promise.race([exchange, timeout]);
        if (r === "timeout") {
          stalls++;
          if (stalls <= 5) log(`no answer in 15 s (client replaced): ${spec.kind} ${spec.method} ${spec.path.slice(0, 160)}`);
          exchange.catch(() => undefined);
          clients.delete(client);
          void client.destroy().catch(() => undefined);
          client = newClient();
          byKind[spec.kind] = (byKind[spec.kind] ?? 0) + 1;
        } else {
          note(spec, r.status, r.text);
        }
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === "ECONNREFUSED") refused++;
        // A closed connection is a fair answer to a hostile request; undici refusing to send an
        // invalid request (a bad method or header) never reached the server.
        byKind[spec.kind] = (byKind[spec.kind] ?? 0) + 1;
        if (client.destroyed || client.closed) {
          clients.delete(client);
          client = newClient();
        }
      } finally {
        clearTimeout(timer);
        inFlight.delete(spec);
      }
    }
  };
  // Bounded whatever happens: past the deadline (and a grace for requests in flight) the run
  // stops waiting; requests still open count as stalls.
  let watchdog: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(Array.from({ length: o.concurrency }, worker)),
    new Promise<void>((resolve) => {
      watchdog = setTimeout(resolve, o.seconds * 1000 + 5_000);
    }),
  ]);
  clearTimeout(watchdog);
  stalls += inFlight.size;

  // The server must still answer, and its own count of 500s must agree.
  const alive = await fetch(`${emulator.baseUrl}/openapi.json`).then((r) => r.status === 200, () => false);
  if (!alive || refused > 0) crashes++;
  if (stalls > 0) log(`${stalls} requests got no answer within their timeout`);
  fiveXX = Math.max(fiveXX, emulator.stats().internalErrors);
  await Promise.all([...clients].map((c) => c.destroy().catch(() => undefined)));
  await emulator.close();
  gc?.();
  const rssGrowthMb = Math.max(0, (process.memoryUsage().rss - rssBefore) / 1024 / 1024);
  process.off("uncaughtException", onUncaught);
  process.off("unhandledRejection", onUncaught);
  return { requests: sent, fiveXX, crashes, stalls, rssGrowthMb: Math.round(rssGrowthMb), byKind, seconds: (performance.now() - started) / 1000 };
}

/** Sends raw bytes on a fresh socket; resolves with what came back (bounded in time and size). */
function rawSend(port: number, data: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (value?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(value ?? Buffer.concat(chunks).toString("latin1"));
    };
    const timer = setTimeout(() => finish(), 2_000);
    let settle: NodeJS.Timeout | undefined;
    socket.on("data", (d) => {
      chunks.push(d);
      size += d.length;
      if (size > 64 * 1024) finish();
      // A kept-alive connection stays open: once answers flow, a short quiet ends the exchange.
      if (settle !== undefined) clearTimeout(settle);
      settle = setTimeout(() => finish(), 100);
    });
    socket.on("close", () => finish());
    socket.on("error", (err: Error & { code?: string }) => finish(err.code === "ECONNREFUSED" ? "refused" : undefined));
    socket.on("connect", () => socket.write(data));
  });
}
