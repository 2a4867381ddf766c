/**
 * The spec's local test server for a job handler (`cpsim handler FILE --rp_serve_api`), answering
 * as the platform SDK's own does (choices.md): `POST /runsync` runs the handler and answers
 * `{id, status: "COMPLETED", output}` or `{id, status: "FAILED", error}`; `POST /run` stores the
 * job and answers `{id: "test-<uuid>", status: "IN_PROGRESS"}` without running it; `/status/{id}`
 * runs a stored job once (a second call: FAILED "Job ID not found"); `/stream/{id}` runs it and
 * answers its outputs as `stream: [{output}, ...]` (FAILED unless the handler is a generator). A
 * generator's job output is the list of what it yielded. Invalid bodies get 422 with FastAPI's
 * `{"detail": [...]}` shape, as the SDK's server gives.
 */
import { randomUUID } from "node:crypto";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import type { HandlerLog, HandlerOutcome, HandlerRuntime } from "../../handler/index.ts";
import { ListenError, PortInUseError } from "../errors.ts";

export interface LocalServerOptions {
  /** Spec default: localhost. */
  readonly host: string;
  /** Spec default: 8000; 0 picks a free port. */
  readonly port: number;
  /** A job that runs longer is stopped and answered FAILED (the platform's default execution timeout). */
  readonly executionTimeoutMs: number;
  /** `--rp_debugger`: answers carry `rp_debugger` timings and every job is logged at DEBUG. */
  readonly debugger: boolean;
  /** Jobs stored by `/run` and not yet fetched; the oldest is dropped beyond this. */
  readonly maxStoredJobs: number;
  /** Largest request body (the spec's runsync payload limit). */
  readonly bodyLimit: number;
  readonly log: HandlerLog;
}

export const defaultLocalServerOptions: LocalServerOptions = {
  host: "localhost",
  port: 8000,
  executionTimeoutMs: 600_000,
  debugger: false,
  maxStoredJobs: 10_000,
  bodyLimit: 20 * 1024 * 1024,
  log: () => {},
};

export interface LocalServerHandle {
  /** `http://host:port`, the port resolved when 0 was asked. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

interface StoredJob {
  readonly input: Record<string, unknown>;
  readonly webhook?: string;
}

const NOT_FOUND = "Job ID not found";
const NOT_STREAMING = "Stream not supported, handler must be a generator.";
const WEBHOOK_TIMEOUT_MS = 5_000;

export async function startLocalServer(runtime: HandlerRuntime, given: Partial<LocalServerOptions> = {}): Promise<LocalServerHandle> {
  const o: LocalServerOptions = { ...defaultLocalServerOptions, ...given };
  const stored = new Map<string, StoredJob>();
  const app = Fastify({ logger: false, bodyLimit: o.bodyLimit, forceCloseConnections: true });

  /** Runs one job under the execution timeout; streaming outputs are collected in order. */
  async function execute(id: string, input: unknown): Promise<{ outcome: HandlerOutcome; chunks: unknown[]; ms: number }> {
    const chunks: unknown[] = [];
    const started = performance.now();
    if (o.debugger) o.log("DEBUG", `job ${id}: started with input ${JSON.stringify(input).slice(0, 1000)}`);
    const exec = runtime.run({ id, input }, (c) => chunks.push(c));
    const timer = setTimeout(exec.stop, o.executionTimeoutMs);
    let outcome = await exec.result;
    clearTimeout(timer);
    if (!outcome.ok && outcome.stopped === true) outcome = { ok: false, error: `execution timeout exceeded (${o.executionTimeoutMs} ms)` };
    const ms = Math.round(performance.now() - started);
    o.log(outcome.ok ? "INFO" : "ERROR", `job ${id}: ${outcome.ok ? "COMPLETED" : `FAILED: ${outcome.error}`} (${ms} ms)`);
    return { outcome, chunks, ms };
  }

  function answer(id: string, r: { outcome: HandlerOutcome; ms: number }): Record<string, unknown> {
    const body: Record<string, unknown> = r.outcome.ok ? { id, status: "COMPLETED", output: r.outcome.output } : { id, status: "FAILED", error: r.outcome.error };
    if (r.outcome.ok && r.outcome.output === undefined) delete body.output;
    if (o.debugger) body.rp_debugger = { executionTime: r.ms, handler: runtime.file, generator: runtime.generator };
    return body;
  }

  function notify(webhook: string | undefined, payload: unknown): void {
    if (webhook === undefined) return;
    fetch(webhook, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload), signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS) }).then(
      () => {},
      (err: Error) => o.log("WARN", `webhook ${webhook} failed: ${err.message}`),
    );
  }

  /** The body's `input` (a JSON object) and `webhook`, or a 422 already sent. */
  function readJob(request: FastifyRequest, reply: FastifyReply): StoredJob | undefined {
    const body = request.body as Record<string, unknown> | undefined;
    const problems: { loc: string[]; msg: string; type: string }[] = [];
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      problems.push({ loc: ["body"], msg: "the body must be a JSON object {\"input\": {...}}", type: "type_error.dict" });
    } else {
      const input = body.input;
      if (input === undefined) problems.push({ loc: ["body", "input"], msg: "field required", type: "value_error.missing" });
      else if (typeof input !== "object" || input === null || Array.isArray(input)) problems.push({ loc: ["body", "input"], msg: "value is not a valid dict", type: "type_error.dict" });
      if (body.webhook !== undefined && typeof body.webhook !== "string") problems.push({ loc: ["body", "webhook"], msg: "str type expected", type: "type_error.str" });
    }
    if (problems.length > 0) {
      void reply.code(422).send({ detail: problems });
      return undefined;
    }
    const b = body as { input: Record<string, unknown>; webhook?: string };
    return b.webhook === undefined ? { input: b.input } : { input: b.input, webhook: b.webhook };
  }

  app.post("/run", async (request, reply) => {
    const job = readJob(request, reply);
    if (job === undefined) return reply;
    const id = `test-${randomUUID()}`;
    if (stored.size >= o.maxStoredJobs) stored.delete(stored.keys().next().value as string);
    stored.set(id, job);
    o.log("INFO", `job ${id}: stored (runs on /status/${id} or /stream/${id})`);
    return { id, status: "IN_PROGRESS" };
  });

  app.post("/runsync", async (request, reply) => {
    const job = readJob(request, reply);
    if (job === undefined) return reply;
    const id = `test-${randomUUID()}`;
    const r = await execute(id, job.input);
    const body = answer(id, r);
    if (r.outcome.ok) notify(job.webhook, { output: r.outcome.output });
    return body;
  });

  const status = async (request: FastifyRequest<{ Params: { id: string } }>): Promise<Record<string, unknown>> => {
    const id = request.params.id;
    const job = stored.get(id);
    if (job === undefined) return { id, status: "FAILED", error: NOT_FOUND };
    stored.delete(id);
    const r = await execute(id, job.input);
    if (r.outcome.ok) notify(job.webhook, { output: r.outcome.output });
    return answer(id, r);
  };
  app.post("/status/:id", status);
  app.get("/status/:id", status);

  const stream = async (request: FastifyRequest<{ Params: { id: string } }>): Promise<Record<string, unknown>> => {
    const id = request.params.id;
    const job = stored.get(id);
    if (job === undefined) return { id, status: "FAILED", error: NOT_FOUND };
    if (!runtime.generator) return { id, status: "FAILED", error: NOT_STREAMING };
    stored.delete(id);
    const r = await execute(id, job.input);
    if (!r.outcome.ok) return answer(id, r);
    const chunks = r.chunks.map((output) => ({ output }));
    notify(job.webhook, chunks);
    const body: Record<string, unknown> = { id, status: "COMPLETED", stream: chunks };
    if (o.debugger) body.rp_debugger = { executionTime: r.ms, handler: runtime.file, generator: true };
    return body;
  };
  app.post("/stream/:id", stream);
  app.get("/stream/:id", stream);

  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send({ detail: "Not Found", routes: ["POST /run", "POST /runsync", "POST /status/{id}", "GET|POST /stream/{id}"], path: request.url.slice(0, 200) });
  });
  app.setErrorHandler((err: Error & { statusCode?: number }, _request, reply) => {
    const code = err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (code === 500) o.log("ERROR", `internal error: ${err.stack ?? err.message}`);
    void reply.code(code === 400 ? 422 : code).send({ detail: [{ loc: ["body"], msg: err.message, type: "value_error" }] });
  });

  try {
    await app.listen({ host: o.host, port: o.port });
  } catch (err) {
    await app.close();
    if ((err as { code?: string }).code === "EADDRINUSE") throw new PortInUseError(o.host, o.port);
    throw new ListenError(o.host, o.port, err);
  }
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : o.port;
  const host = o.host.includes(":") ? `[${o.host}]` : o.host;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () => app.close(),
  };
}
