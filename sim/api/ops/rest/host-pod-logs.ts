/**
 * The host API's pod logs, as `runpod.apps.logs` reads them (`GET {RUNPOD_HAPI_URL}/v1/pod/{podId}/logs`;
 * point RUNPOD_HAPI_URL at the emulator's base URL): `type` all|container|system (default all);
 * without `stream` a snapshot `{"container": [line…], "system": [line…]}`, with `stream=true` the
 * Server-Sent Events of the REST pod-log route (`data: {"ts", "source", "line"}`). The lines,
 * `tail` (default 100) and `since` are that route's (logs.ts), in both forms.
 *
 * Choices where the platform is silent (docs/resources.md): both keys are always present (the one `type`
 * leaves out is empty); a snapshot line is the line's text without its time; the stream ends
 * after the lines there are, as the REST route's does. A serverless worker's id (a job's
 * `workerId`, which runpod/apps/monitor.py follows during a dev call) answers that worker's
 * system line, as the REST worker-log route does, while the worker is up.
 */
import { json } from "../../json-response.ts";
import type { Operation } from "../../op-context.ts";
import { problem } from "../../problem.ts";
import { respond } from "../../types.ts";
import { logWindow, ownWorker, podSystemLines, selectLines, sseAnswer, workerSystemLines } from "./logs.ts";
import { podNotFound } from "./pod-problems.ts";

export const HOST_LOG_TYPES = ["all", "container", "system"] as const;

export const hostPodLogs: Operation = (ctx) => {
  const podId = ctx.params.podId ?? "";
  const pod = ctx.platform.pods.get(ctx.principal.accountId, podId);
  const worker = pod ? undefined : ownWorker(ctx.platform, ctx.principal.accountId, podId);
  if (!pod && !worker) return respond(podNotFound(podId));
  const { type = "all", stream = "false" } = ctx.request.query;
  if (!(HOST_LOG_TYPES as readonly string[]).includes(type)) return respond(problem(400, `type ${JSON.stringify(type)} must be all, container or system.`));
  if (stream !== "true" && stream !== "false") return respond(problem(400, `stream ${JSON.stringify(stream)} must be true or false.`));
  const w = logWindow(ctx, type === "all" ? undefined : type);
  if (!w.ok) return respond(w.response);
  const lines = selectLines(pod ? podSystemLines(pod) : workerSystemLines(worker!, ctx.now), w.value);
  if (stream === "true") return respond(sseAnswer(lines));
  const of = (source: string) => lines.filter((l) => l.source === source).map((l) => l.line);
  return respond(json(200, { container: of("container"), system: of("system") }));
};
