/**
 * `startEmulator`: the platform over HTTP on one port (REST v2, GraphQL and job endpoints side by
 * side), a thin transport over an EmulatorBackend. What it owns: sockets and their limits, JSON
 * bodies, 404/405, parking requests that wait for a job, the mapping of wall time to virtual
 * time with one timer, webhook delivery, the control API and a graceful stop. Every refusal is
 * `application/problem+json` with a 4xx; a 5xx only ever means a bug, and never stops the server.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from "fastify";
import type { Micros } from "../core/index.ts";
import { PROBLEM_CONTENT_TYPE, problem, problemBody } from "../api/problem.ts";
import type { ApiOutcome, ApiRequest, ApiResponse, HttpMethod } from "../api/types.ts";
import type { BackendApiKey, EmulatorBackend, WebhookDelivery } from "./backend.ts";
import { CONTROL_PREFIX, type ClockView, type ControlTarget, clockView, controlRoutes, handleControl } from "./control.ts";
import { defectiveBackend } from "../defects/defective-backend.ts";
import { conventionsBackend } from "../conventions/layer.ts";
import { conventionsDefaultBackend, createDefaultBackend } from "./default-backend.ts";
import { controlRefusal } from "./control-guard.ts";
import { ListenError, PortInUseError } from "./errors.ts";
import { StateSession } from "./state/state-session.ts";
import { originForm, parseQuery, truncate, urlHost } from "./request-target.ts";
import { digestStream, limitStream, tooLarge } from "./body-streams.ts";
import { lingerOnClose, onClientError } from "./client-errors.ts";
import { BodyRejection, contentTypeProblem } from "./json-body.ts";
import { readJsonBody } from "./body-read.ts";
import { isLargeBody, writeJsonStream } from "./json-stream.ts";
import { makeParts, unmadeParts } from "./lazy-render.ts";
import { type EmulatorLimits, type EmulatorOptions, resolveOptions } from "./options.ts";
import { RouteTable } from "./route-table.ts";
import { VirtualClock } from "./virtual-clock.ts";
import { type WaitHandle, WaitSet } from "./waits.ts";
import { WebhookSender } from "./webhook-sender.ts";

export interface EmulatorHandle {
  /** `{base_url}` of the spec: REST v2 (`/v2/pods`, …) and `/graphql`. */
  readonly baseUrl: string;
  /** `{serverless_url}` of the spec: job endpoints at `/v2/{endpoint_id}/…`. The official SDKs take `${serverlessUrl}/v2`. */
  readonly serverlessUrl: string;
  readonly apiKeys: readonly BackendApiKey[];
  readonly backend: EmulatorBackend;
  readonly host: string;
  readonly port: number;
  readonly options: Readonly<EmulatorOptions> & { readonly limits: EmulatorLimits };
  /** Counters for diagnostics and tests. */
  stats(): EmulatorStats;
  /** What opening the --state journal reported (a torn last record dropped, …). */
  readonly stateWarnings: readonly string[];
  /** Stops accepting, answers parked waits with 503, lets in-flight requests finish (bounded). Idempotent. */
  close(): Promise<void>;
  /** Drops every open connection now (a second Ctrl+C); close() then resolves promptly. */
  forceClose(): void;
}

export interface EmulatorStats {
  /** Answers of 500 (bugs in cpsim, each logged): the fuzzer's target is 0. */
  readonly internalErrors: number;
  readonly waits: number;
  readonly webhooksPending: number;
  readonly webhooksSent: number;
  readonly webhooksDelivered: number;
  readonly timerArmed: boolean;
  /** With --state: the journal's size, records written since start, failed writes, and why it cannot be written now. */
  readonly journal?: ReturnType<StateSession["stats"]>;
}

const BODYLESS = new Set(["GET", "HEAD"]);
/** Wall time the real clock's catch-up runs the model for before it lets the event loop turn. */
const SYNC_SLICE_MS = 10;
const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

declare module "fastify" {
  interface FastifyRequest {
    /** Body limit of the route this request matched, in bytes. */
    cpsimBodyLimit: number;
    /** Set for control API requests. */
    cpsimControl: boolean;
    /** Set for routes whose body is digested, not parsed (BackendRoute.rawBody). */
    cpsimRawBody: boolean;
    /** The request target's path (origin-form, also when the client sent absolute-form). */
    cpsimPath: string;
    /** The query string without its "?", or "" when there is none. */
    cpsimSearch: string;
  }
}

export async function startEmulator(given: Partial<EmulatorOptions> = {}): Promise<EmulatorHandle> {
  const options = resolveOptions(given);
  const limits = options.limits;
  const built =
    options.backend ??
    (await (options.createBackend ?? (options.conventions ? conventionsDefaultBackend(options.conventions) : createDefaultBackend))({ seed: options.seed, fixtures: options.fixtures, ...(options.memory ? { memory: options.memory } : {}) }));
  // The one place defects cost anything: a clean emulator talks to its backend directly.
  const defective = options.defects?.length ? defectiveBackend(built, options.defects) : built;
  // The platform's defects sit under its conventions, as they would in such an implementation.
  const backend = options.conventions ? conventionsBackend(defective, options.conventions, options.conventionVolumes ?? []) : defective;
  const table = new RouteTable(backend.routes(), limits.defaultBodyLimit);
  const controlTable = options.control ? new RouteTable(controlRoutes, limits.controlBodyLimit) : undefined;
  const maxBodyLimit = Math.max(table.maxBodyLimit, controlTable?.maxBodyLimit ?? 0);
  const state =
    options.state === undefined
      ? undefined
      : StateSession.open(backend, {
          dir: options.state,
          seed: options.seed,
          ...(options.stateKeepPrefix ? { keepValidPrefix: true } : {}),
          ...(options.stateWriteModule ? { writeModule: options.stateWriteModule } : {}),
          ...(options.stateCompactBytes !== undefined ? { compactBytes: options.stateCompactBytes } : {}),
          warn: (message) => process.emitWarning(message, { code: "CPSIM_STATE_COMPACTION" }),
        });
  let seed = state?.seed ?? options.seed;
  const stateWarnings: readonly string[] = state?.warnings ?? [];
  const clock = new VirtualClock(options.clock, options.speed, backend.now());
  const waits = new WaitSet(limits.maxWaits);
  /** Bumped by reset; a delivery's result counts only for the generation that made it due. */
  let generation = 0;
  const deliveryGeneration = new WeakMap<WebhookDelivery, number>();
  let closing = false;
  let internalErrors = 0;
  let closePromise: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** Wall time (performance.now) the armed timer fires at. */
  let timerAt = Infinity;

  const webhooks = new WebhookSender({
    timeoutMs: limits.webhookTimeoutMs,
    maxInFlight: limits.maxWebhooksInFlight,
    maxQueue: limits.maxWebhookQueue,
    onResult: (delivery, ok) => {
      if (deliveryGeneration.get(delivery) !== generation) return;
      sync();
      backend.webhookResult(delivery, ok);
      afterModelChange();
    },
  });

  const app = Fastify({
    logger: options.logger,
    // Our onRequest hook answers 503 during close itself, as problem+json (fastify's fast path
    // would answer with its own JSON shape).
    return503OnClosing: false,
    connectionTimeout: limits.connectionTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    forceCloseConnections: "idle",
    routerOptions: { maxParamLength: limits.maxParamLength },
    bodyLimit: maxBodyLimit,
    onProtoPoisoning: "error",
    onConstructorPoisoning: "error",
    exposeHeadRoutes: false,
    http: {
      maxHeaderSize: limits.maxHeaderBytes,
      connectionsCheckingInterval: limits.connectionsCheckingIntervalMs,
      // Checked in onRequest instead, to answer with a problem body.
      requireHostHeader: false,
    },
    clientErrorHandler: (err, socket) => onClientError(err, socket, limits.maxHeaderBytes),
    frameworkErrors: (err, _request, reply) => {
      sendProblem(reply, err.statusCode && err.statusCode < 500 ? err.statusCode : 400, frameworkDetail(err));
    },
  });
  app.server.headersTimeout = limits.headersTimeoutMs;
  // Node closes a CONNECT without a word unless someone listens; it is answered like any method
  // the emulator does not serve.
  app.server.on("connect", (_req, socket: Socket) => {
    const body = JSON.stringify(problemBody(405, "CONNECT is not supported; the emulator is not a proxy"));
    socket.on("error", () => socket.destroy());
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nAllow: GET, POST, PATCH, DELETE, OPTIONS\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    setTimeout(() => socket.destroy(), 1_000).unref();
  });
  // One more than allowed, so that a request over the limit is seen (node drops the rest).
  app.server.maxHeadersCount = limits.maxHeaders + 1;
  const onRequestDone = options.onRequestDone;
  if (onRequestDone) {
    // At the node level, so that every answer counts (the emulator writes responses straight to node).
    app.server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      const start = performance.now();
      res.once("close", () => {
        onRequestDone({ method: req.method ?? "", url: req.url ?? "", status: res.statusCode, ms: performance.now() - start, finished: res.writableFinished });
      });
    });
  }
  app.decorateRequest("cpsimBodyLimit", 0);
  app.decorateRequest("cpsimControl", false);
  app.decorateRequest("cpsimRawBody", false);
  app.decorateRequest("cpsimPath", "");
  app.decorateRequest("cpsimSearch", "");

  app.removeAllContentTypeParsers();
  // The body is read by body-read.ts (a large one straight into memory the parsing thread shares).
  app.addContentTypeParser("*", { bodyLimit: maxBodyLimit }, (request, payload, done) => {
    readJsonBody(payload, { contentLength: request.headers["content-length"], limit: maxBodyLimit, direct: !request.cpsimRawBody }, limits, done);
  });

  app.setErrorHandler((err: FastifyError, request, reply) => {
    const mapped = mapError(err, request);
    if (mapped.status >= 500) {
      internalErrors++;
      request.log.error({ err }, "internal error");
    }
    // A body refused while it streams in leaves bytes unread: fastify asked for the connection to close.
    const connection = reply.getHeader("connection");
    sendResponse(reply, problem(mapped.status, mapped.detail), connection === "close" ? { connection: "close" } : undefined);
  });

  app.addHook("onRequest", (request, reply, done) => {
    const early = screen(request);
    if (early === undefined) return done();
    sendResponse(reply, early);
  });

  app.addHook("preParsing", (request, _reply, payload, done) => {
    if (request.cpsimRawBody) {
      // Streamed through SHA-256 and counted (within the route's limit); what is parsed is the summary.
      done(null, digestStream(payload, request.cpsimBodyLimit));
      return;
    }
    // A body with Content-Length was checked against the route's limit already and node reads
    // no more than that length; a chunked one is counted as it streams in.
    if (request.headers["transfer-encoding"] !== undefined && request.cpsimBodyLimit < maxBodyLimit) {
      done(null, limitStream(payload, request.cpsimBodyLimit));
      return;
    }
    done(null, payload);
  });

  app.all("*", { bodyLimit: maxBodyLimit }, (request, reply) => {
    if (request.cpsimControl) {
      void serveControl(request, reply);
      return reply;
    }
    serve(request, reply);
    return reply;
  });

  /** Checks everything that can be refused before the body is read; undefined lets the request on. */
  function screen(request: FastifyRequest): ApiResponse | undefined {
    const raw = request.raw;
    if (closing) return problem(503, "the emulator is shutting down", { headers: { connection: "close", "retry-after": "1" } });
    const url = raw.url ?? "/";
    // An oversized request line or header block is refused and its connection closed.
    if (url.length > limits.maxUrlLength) {
      return problem(414, `the request target is longer than ${limits.maxUrlLength} characters`, { headers: { connection: "close" } });
    }
    if (raw.rawHeaders.length > 2 * limits.maxHeaders) {
      return problem(431, `the request has more than ${limits.maxHeaders} header fields`, { headers: { connection: "close" } });
    }
    // HTTP/1.1 requires Host; node's own check would answer without a problem body.
    if (raw.httpVersionMajor === 1 && raw.httpVersionMinor === 1 && raw.headers.host === undefined) {
      return problem(400, "an HTTP/1.1 request needs a Host header", { headers: { connection: "close" } });
    }
    const origin = originForm(url);
    const q = origin.indexOf("?");
    const path = q === -1 ? origin : origin.slice(0, q);
    request.cpsimPath = path;
    request.cpsimSearch = q === -1 ? "" : origin.slice(q + 1);
    const method = raw.method ?? "GET";
    const isControl = controlTable !== undefined && path.startsWith(CONTROL_PREFIX);
    const found = (isControl ? controlTable : table).lookup(method, path);
    // A backend that checks keys before routes answers unknown paths and methods itself.
    const passOn = !isControl && backend.answersUnrouted === true && (found.kind === "not-found" || (found.kind === "method-not-allowed" && method !== "OPTIONS"));
    if (found.kind === "not-found" && !passOn) return refuse(request, problem(404, `no route for ${method} ${truncate(path)}`));
    if (found.kind === "method-not-allowed" && !passOn) {
      if (method === "OPTIONS") return refuse(request, { status: 204, headers: { allow: found.allow } });
      return refuse(request, problem(405, `${method} is not allowed on ${truncate(path)}; allowed: ${found.allow}`, { headers: { allow: found.allow } }));
    }
    const bodyLimit = found.kind === "match" ? found.bodyLimit : limits.defaultBodyLimit;
    request.cpsimBodyLimit = bodyLimit;
    request.cpsimControl = isControl;
    request.cpsimRawBody = found.kind === "match" && found.rawBody;
    if (BODYLESS.has(method)) return undefined;
    const headers = request.headers;
    const contentType = headers["content-type"];
    const contentLength = headers["content-length"];
    const encoding = headers["content-encoding"];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== "identity") {
      return refuse(request, problem(415, `content encoding "${truncate(encoding)}" is not supported; send the JSON body uncompressed`));
    }
    const hasBody = headers["transfer-encoding"] !== undefined || (contentLength !== undefined && contentLength !== "0");
    if (found.kind === "match" && found.anyContentType) {
      // Read as JSON whatever the header says (the official worker's form-typed JSON posts).
    } else if (contentType !== undefined) {
      const unsupported = contentTypeProblem(contentType);
      if (unsupported !== undefined) return refuse(request, problem(415, unsupported));
    } else if (hasBody) {
      return refuse(request, problem(415, "a request body needs Content-Type: application/json"));
    }
    if (contentLength !== undefined && Number(contentLength) > bodyLimit) {
      return refuse(request, problem(413, tooLarge(bodyLimit)));
    }
    return undefined;
  }

  /** A refusal sent before the body was read closes the connection if a body is on its way, so it is never read. */
  function refuse(request: FastifyRequest, response: ApiResponse): ApiResponse {
    const h = request.headers;
    const bodyComing = h["transfer-encoding"] !== undefined || (h["content-length"] !== undefined && h["content-length"] !== "0");
    return bodyComing ? { ...response, headers: { ...response.headers, connection: "close" } } : response;
  }

  function serve(request: FastifyRequest, reply: FastifyReply): void {
    sync();
    const apiRequest: ApiRequest = {
      method: request.raw.method as HttpMethod,
      path: request.cpsimPath,
      query: request.cpsimSearch === "" ? EMPTY_QUERY : parseQuery(request.cpsimSearch),
      headers: request.headers as Record<string, string | undefined>,
      body: request.body,
    };
    // While the journal cannot be written, a change is refused before the model sees it.
    const refused = state?.refusal(apiRequest);
    if (refused !== undefined) {
      sendResponse(reply, refused);
      return;
    }
    let outcome: ApiOutcome;
    const at = backend.now();
    try {
      outcome = backend.handle(apiRequest);
    } catch (err) {
      request.log.error({ err }, "backend failed");
      internalErrors++;
      state?.request(apiRequest, at, "threw");
      whenDurable(reply, true, () => sendProblem(reply, 500, "the emulator failed to answer this request; this is a bug in cpsim"));
      afterModelChange();
      return;
    }
    const change = state?.request(apiRequest, at, outcome.kind === "response" ? outcome.response.status : "wait") ?? false;
    if (outcome.kind === "response") {
      const response = outcome.response;
      whenDurable(reply, change, () => sendResponse(reply, response));
    } else {
      const wait = outcome;
      whenDurable(reply, change, () => park(reply, wait));
    }
    afterModelChange();
  }

  /** Answers once every journal record so far is on disk (group commit); at once without --state. */
  function whenDurable(reply: FastifyReply, change: boolean, send: () => void): void {
    if (state === undefined) send();
    else state.whenDurable(send, (response) => sendResponse(reply, response), change);
  }

  /** Parks a request until its job is final or virtual time reaches the deadline. */
  function park(reply: FastifyReply, wait: Extract<ApiOutcome, { kind: "wait" }>): void {
    if (wait.deadline <= backend.now()) {
      render(reply, wait);
      return;
    }
    let unsubscribe: (() => void) | undefined;
    const handle: WaitHandle | undefined = waits.add(wait.deadline, {
      onDeadline: () => {
        unsubscribe?.();
        render(reply, wait);
      },
      onCancel: (reason) => {
        unsubscribe?.();
        sendProblem(reply, 503, reason, { connection: "close", "retry-after": "1" });
      },
    });
    if (handle === undefined) {
      sendProblem(reply, 503, `too many requests are waiting for jobs (limit ${limits.maxWaits}); use run and status instead`, { "retry-after": "1" });
      return;
    }
    unsubscribe = backend.onJobFinal(wait.endpointId, wait.jobId, () => {
      if (!handle.settle()) return;
      unsubscribe?.();
      render(reply, wait);
    });
    if (!isOpen(reply)) {
      // The job went final inside onJobFinal or the client left already.
      if (handle.settle()) unsubscribe();
      return;
    }
    const socket = reply.raw.socket as Socket | null;
    // A wait is silent on the wire; the idle-socket timeout must not cut it. Node sets the
    // keep-alive timeout after the response and the idle timeout again on the next request.
    socket?.setTimeout(0);
    reply.raw.once("close", () => {
      if (handle.settle()) unsubscribe?.();
    });
  }

  function render(reply: FastifyReply, wait: Extract<ApiOutcome, { kind: "wait" }>): void {
    let response: ApiResponse;
    try {
      response = wait.render(backend.now());
    } catch (err) {
      reply.log.error({ err }, "backend failed to render a wait");
      internalErrors++;
      response = problem(500, "the emulator failed to answer this request; this is a bug in cpsim");
    }
    sendResponse(reply, response);
  }

  function isOpen(reply: FastifyReply): boolean {
    return !reply.sent && !reply.raw.destroyed && !reply.raw.writableEnded;
  }

  /**
   * Writes the response straight to node, headers exactly as the backend gave them (fastify's
   * send would add a charset to `application/problem+json` and parse the content type again).
   */
  function sendResponse(reply: FastifyReply, response: ApiResponse, extraHeaders?: Record<string, string>): void {
    if (!isOpen(reply)) return;
    reply.hijack();
    const res = reply.raw;
    const headers = response.headers;
    for (const name in headers) res.setHeader(name, headers[name]);
    if (extraHeaders !== undefined) for (const name in extraHeaders) res.setHeader(name, extraHeaders[name]);
    if (closing) res.setHeader("connection", "close");
    if (res.getHeader("connection") === "close" && res.socket) lingerOnClose(res.socket);
    res.statusCode = response.status;
    if (response.body === undefined) {
      res.end();
      return;
    }
    // A text answer (the log routes' text/event-stream, a YAML description) is written as it is.
    if (typeof response.body === "string" && (headers["content-type"]?.startsWith("text/") || headers["content-type"] === "application/yaml")) {
      res.end(response.body);
      return;
    }
    if (headers["content-type"] === undefined) res.setHeader("content-type", JSON_CONTENT_TYPE);
    // An image job's pictures are made now, on a worker thread, not on the event loop.
    const unmade = unmadeParts(response.body);
    if (unmade.length > 0) {
      const body = response.body;
      void makeParts(unmade).then(() => writeJsonBody(reply, body));
      return;
    }
    writeJsonBody(reply, response.body);
  }

  function writeJsonBody(reply: FastifyReply, body: unknown): void {
    const res = reply.raw;
    if (res.destroyed || res.writableEnded) return;
    if (isLargeBody(body)) {
      writeJsonStream(res, body).catch((err) => reply.log.error({ err }, "streaming a large answer failed"));
      return;
    }
    res.end(JSON.stringify(body));
  }

  function sendProblem(reply: FastifyReply, status: number, detail: string, headers: Record<string, string> = {}): void {
    sendResponse(reply, problem(status, detail, { headers }));
  }

  async function serveControl(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const refused = controlRefusal(request.headers, options.host, options.controlToken);
    if (refused !== undefined) {
      sendResponse(reply, refused);
      return;
    }
    const method = request.raw.method ?? "GET";
    const unavailable = method === "GET" ? undefined : state?.refusal("control");
    if (unavailable !== undefined) {
      sendResponse(reply, unavailable);
      return;
    }
    try {
      const response = await handleControl(control, method, request.cpsimPath, request.body);
      whenDurable(reply, method !== "GET", () => sendResponse(reply, response));
    } catch (err) {
      internalErrors++;
      request.log.error({ err }, "control API failed");
      sendProblem(reply, 500, "the control API failed; this is a bug in cpsim");
    }
  }

  // ---- time ----

  /**
   * Real mode: runs the model up to the virtual time the wall clock stands for. A request (and
   * any change) waits for all of it: the model's time is the platform's. The timer's catch-up
   * (`sliced`) runs one event time at a time for at most SYNC_SLICE_MS of wall time and goes on
   * in the next turn of the event loop, so that events heavy with work (an image rendered, a
   * 16 MB output made) that fall due together take turns with the requests arriving meanwhile.
   */
  function sync(sliced = false): void {
    const target = clock.target();
    if (target !== undefined && target > backend.now()) {
      const until = sliced ? performance.now() + SYNC_SLICE_MS : Infinity;
      for (;;) {
        const next = backend.nextEventTime();
        if (!sliced || next === undefined || next >= target) {
          backend.advanceTo(target);
          break;
        }
        // Events at the current time are run by any step past it.
        backend.advanceTo(Math.max(next, backend.now() + 1));
        if (performance.now() >= until) {
          catchUpLater();
          break;
        }
      }
    }
    waits.expire(backend.now());
  }

  let catchUpScheduled = false;
  function catchUpLater(): void {
    if (catchUpScheduled || closing) return;
    catchUpScheduled = true;
    setImmediate(() => {
      catchUpScheduled = false;
      if (closing) return;
      onTimer();
    });
  }

  /** After anything that may have changed the model: send due webhooks, re-arm the timer. */
  function afterModelChange(): void {
    try {
      const due = backend.drainWebhooks();
      if (due.length > 0) {
        for (const d of due) deliveryGeneration.set(d, generation);
        webhooks.enqueue(due);
      }
      arm();
    } catch (err) {
      app.log.error({ err }, "model failed after a change");
    }
  }

  /**
   * Real mode keeps one timer armed for the earliest of the next model event and the next wait
   * deadline, so a parked runsync is answered the moment its job finishes, without polling. With
   * nobody waiting and no webhook in flight it fires at most every idleTickMs: the model still
   * delivers webhooks and expires results on time, but a busy model costs an idle server little.
   */
  function arm(): void {
    if (options.clock !== "real" || closing) return;
    const next = Math.min(backend.nextEventTime() ?? Infinity, waits.earliestDeadline() ?? Infinity);
    if (next === Infinity) {
      disarm();
      return;
    }
    let delay = clock.wallDelayMs(next);
    if (waits.size === 0 && webhooks.pending === 0) delay = Math.max(delay, limits.idleTickMs);
    delay = Math.min(delay, 2 ** 31 - 1);
    const at = performance.now() + delay;
    if (timer !== undefined && timerAt <= at) return;
    disarm();
    timerAt = at;
    timer = setTimeout(onTimer, delay);
  }

  function disarm(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    timerAt = Infinity;
  }

  function onTimer(): void {
    timer = undefined;
    timerAt = Infinity;
    try {
      sync(true);
    } catch (err) {
      app.log.error({ err }, "model failed while advancing");
    }
    afterModelChange();
  }

  const control: ControlTarget = {
    maxAdvanceMs: limits.maxAdvanceMs,
    clock: (): ClockView => {
      sync();
      return clockView(backend.now(), options.clock, options.speed, waits.parked);
    },
    advance: async (msValue: number): Promise<ClockView> => {
      sync();
      const target: Micros = backend.now() + msValue * 1000;
      if (options.clock === "real") clock.shift(msValue * 1000);
      backend.advanceTo(target);
      state?.advanced(target);
      waits.expire(backend.now());
      afterModelChange();
      // In manual mode the advance answers after the webhooks it made due were attempted, so a
      // session replays the same way every time.
      if (options.clock === "manual") await webhooks.idle(limits.webhookTimeoutMs + 1_000);
      return clockView(backend.now(), options.clock, options.speed, waits.parked);
    },
    reset: async (newSeed: number | undefined) => {
      seed = newSeed ?? seed;
      generation++;
      waits.cancelAll("the simulation was reset");
      webhooks.clear();
      backend.reset(seed);
      state?.reset(seed);
      clock.rebase(backend.now());
      disarm();
      afterModelChange();
      return { ...clockView(backend.now(), options.clock, options.speed, waits.parked), seed };
    },
  };

  function mapError(err: FastifyError, request: FastifyRequest): { status: number; detail: string } {
    if (err instanceof BodyRejection) return { status: err.status, detail: err.detail };
    switch (err.code) {
      case "FST_ERR_CTP_BODY_TOO_LARGE":
        return { status: 413, detail: tooLarge(request.cpsimBodyLimit || maxBodyLimit) };
      case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
        return { status: 415, detail: "send JSON with Content-Type: application/json" };
      case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
        return { status: 400, detail: "the request body's length does not match its Content-Length" };
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) return { status, detail: err.message || "the request was refused" };
    return { status: 500, detail: "the emulator failed to answer this request; this is a bug in cpsim" };
  }

  // ---- listen ----

  try {
    await app.listen({ host: options.host, port: options.port, listenTextResolver: () => "" });
  } catch (err) {
    await webhooks.close();
    await state?.close();
    await app.close().catch(() => undefined);
    if ((err as { code?: string }).code === "EADDRINUSE") throw new PortInUseError(options.host, options.port);
    throw new ListenError(options.host, options.port, err);
  }
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  const origin = `http://${urlHost(options.host)}:${port}`;
  backend.attachTransport?.({
    change: (fn) => {
      if (closing) return;
      try {
        sync();
        fn();
      } catch (err) {
        app.log.error({ err }, "model failed on a change outside a request");
      }
      afterModelChange();
    },
  });
  arm();

  async function close(): Promise<void> {
    closing = true;
    disarm();
    waits.cancelAll("the emulator is shutting down");
    const grace = setTimeout(() => app.server.closeAllConnections(), limits.closeGraceMs);
    grace.unref();
    try {
      await app.close();
    } finally {
      clearTimeout(grace);
      await webhooks.close();
      // A fold in flight ends first: its snapshot is written before the lock goes (it is quick next to a restart).
      await state?.folded();
      await state?.close();
      await backend.close?.();
    }
  }

  return {
    baseUrl: origin,
    serverlessUrl: origin,
    apiKeys: backend.apiKeys(),
    backend,
    host: options.host,
    port,
    options,
    stateWarnings,
    stats: () => ({
      waits: waits.size,
      webhooksPending: webhooks.pending,
      webhooksSent: webhooks.sent,
      webhooksDelivered: webhooks.delivered,
      timerArmed: timer !== undefined,
      internalErrors,
      ...(state !== undefined ? { journal: state.stats() } : {}),
    }),
    close: () => (closePromise ??= close()),
    forceClose: () => {
      closing = true;
      waits.cancelAll("the emulator is shutting down");
      app.server.closeAllConnections();
    },
  };
}

const EMPTY_QUERY: Readonly<Record<string, string>> = Object.freeze(Object.create(null));

function frameworkDetail(err: FastifyError): string {
  if (err.code === "FST_ERR_BAD_URL") return "the request target is not a valid URL";
  if (err.code === "FST_ERR_MAX_PARAM_LENGTH") return "a path segment is too long";
  return err.message || "the request was refused";
}

