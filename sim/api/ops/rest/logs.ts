/**
 * The log and worker routes of the REST-era official Python client: `GET /v2/pods/{podId}/logs`,
 * `GET /v2/serverless/{id}/workers` and `GET /v2/serverless/{id}/workers/{workerId}/logs`.
 *
 * Logs are Server-Sent Events (`id:` a line number, `data:` `{"ts", "source", "line"}`) read
 * with `tail` (default 100, at most 5000; ignored with `since`), `since` (RFC 3339) and `source`
 * (`container` or `system`), resumed after `Last-Event-ID`. Choices where the platform is
 * silent (docs/resources.md): the emulator runs no container, so there are no `container` lines; the
 * `system` lines are what the model records of a pod (created on its host, its container's
 * starts, its last status change) or of a worker (its state and GPUs now). The stream answers
 * the lines there are and ends (SSE allows it): the client's `iter_*` reconnects from the last
 * id, and nothing is repeated or skipped.
 */
import type { Platform } from "../../../domain/platform.ts";
import type { PodRecord } from "../../../domain/pods/index.ts";
import { isoFromMicros } from "../../../domain/iso-time.ts";
import type { Micros } from "../../../core/index.ts";
import { json } from "../../json-response.ts";
import type { Operation, OpContext } from "../../op-context.ts";
import { problem } from "../../problem.ts";
import { respond, type ApiResponse } from "../../types.ts";
import { podNotFound } from "./pod-problems.ts";

export const LOG_MAX_TAIL = 5000;
const LOG_DEFAULT_TAIL = 100;
const SOURCES = new Set(["container", "system"]);
/** RFC 3339 with a zone, as the client sends `since` (datetime.isoformat() of an aware time). */
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

export interface LogLine {
  readonly ts: string;
  readonly source: "container" | "system";
  readonly line: string;
}

/** Which lines a log read asks for: the last `tail`, or those at or after `since`; one source or both; after a resumed id. */
export interface LogWindow {
  readonly tail: number;
  readonly since: number | undefined;
  readonly source: string | undefined;
  readonly after: number;
}

type Read<T> = { ok: true; value: T } | { ok: false; response: ApiResponse };
const bad = (detail: string) => ({ ok: false as const, response: problem(400, detail) });

/** `tail`, `since` and Last-Event-ID read and checked (shared by every log route), or the 400 naming what is wrong. */
export function logWindow(ctx: OpContext, source: string | undefined): Read<LogWindow> {
  const { tail, since } = ctx.request.query;
  let n = LOG_DEFAULT_TAIL;
  if (tail !== undefined) {
    if (!/^\d{1,4}$/.test(tail) || Number(tail) > LOG_MAX_TAIL) return bad(`tail ${JSON.stringify(tail)} must be a whole number from 0 to ${LOG_MAX_TAIL}.`);
    n = Number(tail);
  }
  let sinceMs: number | undefined;
  if (since !== undefined) {
    if (!RFC3339.test(since) || Number.isNaN(Date.parse(since))) return bad(`since ${JSON.stringify(since)} must be an RFC 3339 time with a zone, e.g. 2026-01-01T00:00:00Z.`);
    sinceMs = Date.parse(since);
  }
  const last = ctx.request.headers["last-event-id"];
  const after = last !== undefined && /^\d{1,9}$/.test(last) ? Number(last) : 0;
  return { ok: true, value: { tail: n, since: sinceMs, source, after } };
}

/** The lines (numbered from 1, oldest first) that a window selects. */
export function selectLines(lines: readonly LogLine[], w: LogWindow): Array<LogLine & { readonly id: number }> {
  let numbered = lines.map((l, i) => ({ id: i + 1, ...l })).filter((l) => w.source === undefined || l.source === w.source);
  if (w.since !== undefined) numbered = numbered.filter((l) => Date.parse(l.ts) >= w.since!);
  else numbered = w.tail === 0 ? [] : numbered.slice(-w.tail);
  return numbered.filter((l) => l.id > w.after);
}

/** Server-Sent Events of selected lines: `id: N`, `data: {"ts", "source", "line"}`. */
export function sseAnswer(lines: ReadonlyArray<LogLine & { readonly id: number }>): ApiResponse {
  const body = lines.map((l) => `id: ${l.id}\ndata: ${JSON.stringify({ ts: l.ts, source: l.source, line: l.line })}\n\n`).join("");
  return { status: 200, headers: { "content-type": "text/event-stream", "cache-control": "no-cache" }, body };
}

/** The SSE answer of `lines` under the query's `tail`, `since`, `source` and Last-Event-ID. */
export function eventStream(ctx: OpContext, lines: readonly LogLine[]): ApiResponse {
  const source = ctx.request.query.source;
  if (source !== undefined && !SOURCES.has(source)) return problem(400, `source ${JSON.stringify(source)} must be container or system (or left out for both).`);
  const w = logWindow(ctx, source);
  return w.ok ? sseAnswer(selectLines(lines, w.value)) : w.response;
}

/** What the model records of a pod, as log lines (system lines only: no container runs). */
export function podSystemLines(pod: PodRecord): LogLine[] {
  const at = (t: Micros) => isoFromMicros(t, pod.epochMs);
  const what = pod.gpu ? `${pod.gpu.count}x ${pod.gpu.displayName}` : pod.cpu ? `${pod.cpu.vcpuCount} vCPUs (${pod.cpu.id})` : "no GPU";
  const lines: Array<LogLine & { t: Micros }> = [{ t: pod.createdAt, ts: at(pod.createdAt), source: "system", line: `Pod ${pod.id} created on host ${pod.hostId} in ${pod.dataCenterId} with ${what}; image ${pod.image}` }];
  if (pod.lastStatusChange !== pod.createdAt) lines.push({ t: pod.lastStatusChange, ts: at(pod.lastStatusChange), source: "system", line: `${pod.lastStatusVerb}; status ${pod.status}` });
  if (pod.startedAt !== null) lines.push({ t: pod.startedAt, ts: at(pod.startedAt), source: "system", line: `Container started (start ${pod.starts})` });
  return lines.sort((a, b) => a.t - b.t).map(({ ts, source, line }) => ({ ts, source, line }));
}

export const podLogs: Operation = (ctx) => {
  const podId = ctx.params.podId ?? "";
  const pod = ctx.platform.pods.get(ctx.principal.accountId, podId);
  return respond(pod ? eventStream(ctx, podSystemLines(pod)) : podNotFound(podId));
};

/** The endpoint's index in the model when the caller may see it (its own, or a shared built-in). */
function visibleEndpoint(platform: Platform, accountId: string, id: string): number | undefined {
  const e = platform.catalog.endpoints.find((x) => x.id === id);
  if (e === undefined || (e.accountId !== null && e.accountId !== accountId)) return undefined;
  const index = platform.serverless.endpointIndex(id);
  return index < 0 ? undefined : index;
}

const noEndpoint = (id: string) => problem(404, `No serverless endpoint ${JSON.stringify(id)} is visible to your account; list them with GET /v2/serverless.`);

export const endpointWorkers: Operation = ({ platform, principal, params }) => {
  const id = params.id ?? "";
  const index = visibleEndpoint(platform, principal.accountId, id);
  return respond(index === undefined ? noEndpoint(id) : json(200, { workers: platform.serverless.workersOf(index) }));
};

export const workerLogs: Operation = (ctx) => {
  const { platform, principal, params, now } = ctx;
  const id = params.id ?? "";
  const index = visibleEndpoint(platform, principal.accountId, id);
  if (index === undefined) return respond(noEndpoint(id));
  const worker = platform.serverless.workersOf(index).find((w) => w.id === params.workerId);
  if (worker === undefined) return respond(problem(404, `Endpoint ${id} has no worker ${JSON.stringify(params.workerId ?? "")} now; list them with GET /v2/serverless/${id}/workers.`));
  return respond(eventStream(ctx, workerSystemLines(worker, now)));
};

type Worker = ReturnType<Platform["serverless"]["workersOf"]>[number];

/** What the model records of a worker now, as one system line. */
export function workerSystemLines(worker: Worker, now: Micros): LogLine[] {
  const on = worker.gpuTypeId === null ? "waiting for GPUs" : `on ${worker.gpuCount}x ${worker.gpuTypeId} in ${worker.dataCenterId}`;
  return [{ ts: isoFromMicros(now), source: "system", line: `Worker ${worker.id} is ${worker.status} ${on}${worker.jobId ? `, running job ${worker.jobId}` : ""}` }];
}

/** A worker of one of the caller's endpoints by its id (a job status's workerId), if it is up now. */
export function ownWorker(platform: Platform, accountId: string, workerId: string): Worker | undefined {
  for (const e of platform.catalog.endpoints) {
    if (e.accountId !== accountId) continue;
    const index = platform.serverless.endpointIndex(e.id);
    const worker = index < 0 ? undefined : platform.serverless.workersOf(index).find((w) => w.id === workerId);
    if (worker !== undefined) return worker;
  }
  return undefined;
}
