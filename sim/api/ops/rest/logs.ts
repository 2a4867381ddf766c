/**
 * The log and worker routes of the REST-era official Python client: `GET /v2/pods/{podId}/logs`,
 * `GET /v2/serverless/{id}/workers` and `GET /v2/serverless/{id}/workers/{workerId}/logs`.
 *
 * Logs are Server-Sent Events (`id:` a line number, `data:` `{"ts", "source", "line"}`) read
 * with `tail` (default 100, at most 5000; ignored with `since`), `since` (RFC 3339) and `source`
 * (`container` or `system`), resumed after `Last-Event-ID`. Choices where the platform is
 * silent (README): the emulator runs no container, so there are no `container` lines; the
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

interface LogLine {
  readonly ts: string;
  readonly source: "container" | "system";
  readonly line: string;
}

/** The query read and checked, or the 400 that names what is wrong. */
function logQuery(ctx: OpContext): { ok: true; tail: number; since: number | undefined; source: string | undefined; after: number } | { ok: false; response: ApiResponse } {
  const { tail, since, source } = ctx.request.query;
  const bad = (detail: string) => ({ ok: false as const, response: problem(400, detail) });
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
  if (source !== undefined && !SOURCES.has(source)) return bad(`source ${JSON.stringify(source)} must be container or system (or left out for both).`);
  const last = ctx.request.headers["last-event-id"];
  const after = last !== undefined && /^\d{1,9}$/.test(last) ? Number(last) : 0;
  return { ok: true, tail: n, since: sinceMs, source, after };
}

/** The SSE answer of `lines` (numbered from 1) under the query. */
export function eventStream(ctx: OpContext, lines: readonly LogLine[]): ApiResponse {
  const q = logQuery(ctx);
  if (!q.ok) return q.response;
  let numbered = lines.map((l, i) => ({ id: i + 1, ...l })).filter((l) => q.source === undefined || l.source === q.source);
  if (q.since !== undefined) numbered = numbered.filter((l) => Date.parse(l.ts) >= q.since!);
  else numbered = q.tail === 0 ? [] : numbered.slice(-q.tail);
  numbered = numbered.filter((l) => l.id > q.after);
  const body = numbered.map((l) => `id: ${l.id}\ndata: ${JSON.stringify({ ts: l.ts, source: l.source, line: l.line })}\n\n`).join("");
  return { status: 200, headers: { "content-type": "text/event-stream", "cache-control": "no-cache" }, body };
}

function podSystemLines(pod: PodRecord): LogLine[] {
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
  const on = worker.gpuTypeId === null ? "waiting for GPUs" : `on ${worker.gpuCount}x ${worker.gpuTypeId} in ${worker.dataCenterId}`;
  const line = `Worker ${worker.id} is ${worker.status} ${on}${worker.jobId ? `, running job ${worker.jobId}` : ""}`;
  return respond(eventStream(ctx, [{ ts: isoFromMicros(now), source: "system", line }]));
};
