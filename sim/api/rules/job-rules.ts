/**
 * Rules of the job endpoints (`{serverless_url}/v2/<endpoint_id>/...`): submission bodies and
 * queries, the job lifecycle, cancel, retry, purge, health, streaming, limits and retention.
 */
import type { Rule } from "./rule.ts";

const JOBS = "Job endpoints";
const JOB = "Job (job endpoints)";
const CHOICE_JOBS = "Job endpoints";
const BODY_KEYS =
  "Body keys of `run`/`runsync` besides `input`: `webhook` (URL), `policy` {`executionTimeout` ms, default 600000, 5 s..7 days; `ttl` ms, default 86400000, 10 s..7 days, counted from submission; `lowPriority` boolean}, `s3Config`. Unknown keys: 400.";
const CANCEL = "Queued jobs are removed before starting; in-progress jobs are stopped; returns immediately";
const RETRY =
  "`retry` works only for jobs whose status is FAILED or TIMED_OUT; it keeps the job id, requeues with the original input, and removes previous output.";
const STATES = "States: `IN_QUEUE`, `IN_PROGRESS`, `COMPLETED`, `FAILED`, `CANCELLED`, `TIMED_OUT`.";
/** How a duration rule reads the target's time (conformance/checks/jobs/support/target-clock.ts). */
const TARGET_CLOCK =
  "Durations are the target's milliseconds: where the suite cannot move the target's clock, it reads how fast that clock runs from the conformance handler's sleep (a sleep of S ms answered after W wall ms shows at least S/W; the wall clock when that is below 1.5) and judges the time it measured on that clock, with a quarter more for the measurement's overhead.";
const PAYLOAD_CHOICE = { status: 413, lenientStatuses: [400, 413], strictStatuses: [413] } as const;

export const jobRules = [
  // Submission (run, runsync): body and query.
  {
    id: "jobs.submit.input-object", title: "`run` and `runsync` bodies carry an `input` object",
    spec: "`{input: object}`", section: JOBS, source: "spec", severity: "error", kind: "request", status: 400,
  },
  {
    id: "jobs.submit.unknown-key", title: "Body keys other than input, webhook, policy and s3Config answer 400",
    spec: BODY_KEYS, section: CHOICE_JOBS, source: "choices", severity: "error", kind: "request", status: 400, strictStatuses: [400],
  },
  {
    id: "jobs.submit.field-type", title: "`policy` and `s3Config` are objects and `policy.lowPriority` a boolean",
    spec: BODY_KEYS, section: CHOICE_JOBS, source: "choices", severity: "error", kind: "request", status: 400,
  },
  {
    id: "jobs.submit.webhook-url", title: "`webhook` is an http(s) URL",
    spec: BODY_KEYS, section: CHOICE_JOBS, source: "choices", severity: "error", kind: "request", status: 400,
  },
  {
    id: "jobs.submit.policy-execution-timeout", title: "`policy.executionTimeout` is whole milliseconds from 5 s to 7 days",
    spec: BODY_KEYS, section: CHOICE_JOBS, source: "choices", severity: "error", kind: "request", status: 400,
  },
  {
    id: "jobs.submit.policy-ttl", title: "`policy.ttl` is whole milliseconds from 10 s to 7 days",
    spec: BODY_KEYS, section: CHOICE_JOBS, source: "choices", severity: "error", kind: "request", status: 400,
  },
  {
    id: "jobs.payload.run-limit", title: "A `run` body over 10 MB is refused",
    spec: "run payload | 10 MB maximum", section: "Limits", source: "spec", severity: "error", kind: "request", ...PAYLOAD_CHOICE,
  },
  {
    id: "jobs.payload.runsync-limit", title: "A `runsync` body over 20 MB is refused",
    spec: "runsync payload | 20 MB maximum", section: "Limits", source: "spec", severity: "error", kind: "request", ...PAYLOAD_CHOICE,
  },
  {
    id: "jobs.runsync.wait-range", title: "`wait` is whole milliseconds from 1000 to 300000 (default 90000)",
    spec: "`wait` (integer milliseconds, 1000 to 300000, default 90000)", section: JOBS, source: "spec", severity: "error", kind: "request", status: 400,
    lenient: "The spec gives the range of `wait`, not the answer to a value outside it: a refusal (4xx), or the job answered as for a wait clamped into 1000..300000 (or ignored for the default); fails a 5xx, an answer that is no job, or a wait longer than 300000 ms actually taken (observed where the suite moves the target's clock: a runsync of a job that outlasts it, sent with a wait above the range, must be answered by the time 300000 ms have passed; against a real-time target that would take five minutes, so the upper bound is not observed within the run). Strict requires a refusal.",
  },
  {
    id: "jobs.status.ttl-query", title: "The `ttl` query of `status` is a positive whole number of milliseconds",
    spec: "`ttl` (integer milliseconds, per-job time-to-live)", section: JOBS, source: "spec", severity: "error", kind: "request", status: 400,
    lenient: "The spec gives the type of `ttl`, not the answer to a value that breaks it: a refusal (4xx), or the job read with the ttl clamped or ignored; fails a 5xx or an answer that is no job. Strict requires a refusal.",
  },
  {
    id: "jobs.empty-body", title: "An empty body sent as application/json reads as `{}`",
    spec: "An empty body with that content type is read as `{}`", section: CHOICE_JOBS, source: "choices", severity: "error", kind: "request",
  },
  {
    id: "jobs.not-found", title: "An unknown job id, or an expired result, answers 404",
    spec: "Unknown job id, or a job whose result expired: 404.", section: CHOICE_JOBS, source: "choices", severity: "error", kind: "request",
    status: 404, strictStatuses: [404],
  },
  {
    id: "jobs.reserved-endpoint-ids", title: "Path segments of the REST host are never read as endpoint ids",
    spec: "An emulator that serves both on one port must never treat `pods`, `catalog`, `templates`, `network-volumes`, `registries`, `billing`, `endpoints` or `graphql` as an endpoint id.",
    section: CHOICE_JOBS, source: "choices", severity: "warning", kind: "request",
  },
  // Answers of run, runsync, status.
  {
    id: "jobs.run.in-queue", title: "`run` answers `{id, status: IN_QUEUE}` at once",
    spec: "`{id, status}` with status IN_QUEUE", section: JOBS, source: "spec", severity: "error", kind: "response",
  },
  {
    id: "jobs.runsync.complete-result", title: "`runsync` answers the whole result of a job that finishes within the wait",
    spec: "`runsync` waits for completion and returns the whole result in one response.", section: `${JOBS} › rule 1`,
    source: "spec", severity: "error", kind: "response",
  },
  {
    id: "jobs.runsync.wait-not-retention", title: "`wait` bounds the wait, not how long the result is kept",
    spec: "The `wait` query controls how long the request waits, not how long the result is kept.", section: `${JOBS} › rule 1`,
    source: "spec", severity: "warning", kind: "transition",
    lenient: `The result is still readable, COMPLETED with its output, once the wait and two seconds more have passed on the target's clock (well within the minute a runsync result is kept). ${TARGET_CLOCK}`,
  },
  {
    id: "jobs.runsync.wait-elapsed", title: "A runsync whose wait elapses answers 200 `{id, status}` with IN_QUEUE or IN_PROGRESS",
    spec: "`runsync` whose wait elapses first: 200 with `{\"id\", \"status\": \"IN_QUEUE\" | \"IN_PROGRESS\"}`; the client goes on with `status`.",
    section: CHOICE_JOBS, source: "choices", severity: "error", kind: "response",
  },
  {
    id: "jobs.status-sync", title: "`status-sync/{id}?wait=` is served with the shape of runsync",
    spec: "The official JS client polls `GET /v2/{endpoint}/status-sync/{id}?wait=` in that case, so serve it too (same shape as runsync).",
    section: CHOICE_JOBS, source: "choices", severity: "error", kind: "response",
  },
  {
    id: "jobs.status.values", title: "`status` answers the job with its state and optional output",
    spec: "`status` returns one of IN_QUEUE, IN_PROGRESS, COMPLETED, FAILED with an optional `output`.", section: `${JOBS} › rule 4`,
    source: "spec", severity: "error", kind: "response",
  },
  {
    id: "jobs.status.ttl", title: "`ttl=N` on `status` gives the job a time-to-live of N milliseconds",
    spec: "Setting `ttl=6000` gives a time-to-live of 6 seconds.", section: `${JOBS} › rule 4`, source: "spec", severity: "error", kind: "transition",
  },
  {
    id: "jobs.failed-error", title: "A job whose handler raised is FAILED with an `error` string",
    spec: "A handler that raises: status FAILED with an `error` string.", section: CHOICE_JOBS, source: "choices", severity: "error", kind: "response",
  },
  // Lifecycle and the fields it fills in.
  {
    id: "jobs.transition-legal", title: "A job moves only along the spec's table: IN_QUEUE → IN_PROGRESS → final state, cancel, retry",
    spec: STATES, section: "Job status", source: "spec", severity: "error", kind: "transition",
    lenient: "Every observed status follows the spec's table. A cancel or retry answered with a final status the job already had (a second cancel of a CANCELLED job answering 200 CANCELLED) moves nothing and is not a transition; fails a job leaving a final state unasked (a CANCELLED job that later completes).",
  },
  {
    id: "jobs.delay-time", title: "`delayTime` is the queue wait in milliseconds",
    spec: "Milliseconds the job waited in the queue before processing", section: JOB, source: "spec", severity: "error", kind: "invariant",
    lenient: `A non-negative integer, never more than the time that passed between submission and the answer reporting it (two seconds of slack in real time); how long the queue takes is left open. ${TARGET_CLOCK}`,
  },
  {
    id: "jobs.execution-time", title: "A completed job carries `executionTime` in milliseconds",
    spec: "Milliseconds of execution; present on completed jobs", section: JOB, source: "spec", severity: "error", kind: "invariant",
    lenient: `Present on a completed job, a non-negative integer at least the handler's sleep and never more than the time that passed between submission and the answer (two seconds of slack in real time). ${TARGET_CLOCK}`,
  },
  {
    id: "jobs.completed-output", title: "A completed job carries its output",
    spec: "handler finishes | success | COMPLETED | executionTime and output are present", section: "Job status", source: "spec", severity: "error", kind: "invariant",
  },
  {
    id: "jobs.worker-id", title: "A completed job names the worker that ran it",
    spec: "workerId | string | Present on a completed job", section: JOB, source: "spec", severity: "error", kind: "invariant",
  },
  {
    id: "jobs.input-echo", title: "A job in progress echoes its input",
    spec: "input | object | Echoed while the job is in progress", section: JOB, source: "spec", severity: "error", kind: "invariant",
  },
  {
    id: "jobs.policy.execution-timeout", title: "A job running longer than its execution timeout becomes TIMED_OUT",
    spec: BODY_KEYS, section: CHOICE_JOBS, source: "choices", severity: "error", kind: "transition",
  },
  {
    id: "jobs.policy.ttl", title: "A job older than its policy ttl (from submission) is dropped",
    spec: BODY_KEYS, section: CHOICE_JOBS, source: "choices", severity: "error", kind: "transition",
  },
  // Cancel.
  {
    id: "jobs.cancel.queued", title: "Cancelling a queued job removes it before it starts",
    spec: CANCEL, section: "Job status", source: "spec", severity: "error", kind: "transition",
  },
  {
    id: "jobs.cancel.running", title: "Cancelling a job in progress stops it",
    spec: CANCEL, section: "Job status", source: "spec", severity: "error", kind: "transition",
  },
  {
    id: "jobs.cancel.never-completes", title: "A cancelled job never becomes COMPLETED afterwards",
    spec: CANCEL, section: "Job status", source: "spec", severity: "error", kind: "transition",
  },
  {
    id: "jobs.cancel.response", title: "`cancel` answers `{id, status: CANCELLED}`",
    spec: "`{id, status}` with status CANCELLED", section: JOBS, source: "spec", severity: "error", kind: "response",
  },
  // Retry.
  {
    id: "jobs.retry.only-failed", title: "Only a FAILED or TIMED_OUT job can be retried (409 otherwise)",
    spec: RETRY, section: `${JOBS} › rule 6`, source: "spec", severity: "error", kind: "transition", status: 409, strictStatuses: [409],
  },
  {
    id: "jobs.retry.same-id", title: "A retried job keeps its id",
    spec: RETRY, section: `${JOBS} › rule 6`, source: "spec", severity: "error", kind: "transition",
  },
  {
    id: "jobs.retry.original-input", title: "A retried job runs again on its original input",
    spec: RETRY, section: `${JOBS} › rule 6`, source: "spec", severity: "error", kind: "transition",
  },
  {
    id: "jobs.retry.output-removed", title: "A retried job's previous output is removed",
    spec: RETRY, section: `${JOBS} › rule 6`, source: "spec", severity: "error", kind: "transition",
  },
  {
    id: "jobs.retry.in-queue", title: "`retry` answers `{id, status: IN_QUEUE}`",
    spec: "`{id, status}` with status IN_QUEUE", section: JOBS, source: "spec", severity: "error", kind: "response",
  },
  {
    id: "jobs.retry.expired", title: "A job whose result expired cannot be retried (404)",
    spec: "Results expire after a retention period (see Limits); an expired job cannot be retried.", section: "Job status",
    source: "spec", severity: "error", kind: "transition", status: 404, strictStatuses: [404],
  },
  // Purge and health.
  {
    id: "jobs.purge.queued-only", title: "purge-queue removes queued jobs only; running jobs continue",
    spec: "`purge-queue` removes only jobs waiting in the queue; jobs already running continue.", section: `${JOBS} › rule 7`,
    source: "spec", severity: "error", kind: "transition",
  },
  {
    id: "jobs.purge.count", title: "`removed` is the number of queued jobs purge-queue removed",
    spec: "Purge response: `removed` (integer), `status` (string).", section: "Other job responses", source: "spec", severity: "error", kind: "response",
  },
  {
    id: "jobs.health.shape", title: "health answers `jobs` and `workers` counters, all integers",
    spec: "Health response: `jobs` {completed, failed, inProgress, inQueue, retried} and `workers` {idle, running}, all integers.",
    section: "Other job responses", source: "spec", severity: "error", kind: "response",
  },
  {
    id: "jobs.health.counters", title: "health's counters agree with the jobs and workers observed",
    spec: "`health` reports worker counts and job counts for the endpoint.", section: `${JOBS} › rule 8`, source: "spec", severity: "error", kind: "invariant",
  },
  {
    id: "jobs.health.exact", title: "health's inQueue and inProgress equal the endpoint's jobs in those states, read while only the run's jobs use it",
    spec: "`health` reports worker counts and job counts for the endpoint.", section: `${JOBS} › rule 8`, source: "spec", severity: "error", kind: "invariant",
    lenient:
      "Judged only in a window the run can show is its own: health read with nothing in the queue or in progress before the check submits anything, then health read between two status reads of every job of the check that agree. The spec names the counters, not the period completed, failed and retried count over, so only inQueue and inProgress are held exactly; workers are not judged. Work the run does not own (in progress, or a queue a purge-queue shows to be real) makes the rule a skip, never a failure.",
  },
  // Streaming.
  {
    id: "jobs.stream.chunk-size", title: "No stream chunk exceeds 1 MB",
    spec: "stream chunk | 1 MB maximum; larger output is split across chunks", section: "Limits", source: "spec", severity: "error", kind: "response",
  },
  {
    id: "jobs.stream.reassembly", title: "Output split across chunks reassembles, in order, to the handler's output",
    spec: "stream chunk | 1 MB maximum; larger output is split across chunks", section: "Limits", source: "spec", severity: "error", kind: "response",
  },
  {
    id: "jobs.stream.incremental", title: "`stream` yields output as it becomes available, not only at the end",
    spec: "It yields incremental output as it becomes available.", section: `${JOBS} › rule 5`, source: "spec", severity: "warning", kind: "response",
  },
  {
    id: "jobs.stream.shape", title: "`stream` answers `{status, stream: [chunk, ...]}`",
    spec: "`stream` answers `{\"status\": <job status>, \"stream\": [chunk, ...]}`; the official JS client reads the `stream` array and stops when status is final.",
    section: CHOICE_JOBS, source: "choices", severity: "error", kind: "response",
  },
  // Retention.
  {
    id: "jobs.retention", title: "Job inputs and outputs are gone after 30 minutes",
    spec: "Job inputs and outputs are not kept longer than 30 minutes.", section: "What the service does", source: "spec", severity: "error", kind: "transition",
  },
  {
    id: "jobs.retention.run", title: "A `run` result is kept 30 minutes after completion",
    spec: "run result retention | 30 minutes after completion", section: "Limits", source: "spec", severity: "error", kind: "transition",
  },
  {
    id: "jobs.retention.runsync", title: "A `runsync` result is kept 1 minute after completion (up to 5 with `wait`; unreconciled)",
    spec: "runsync result retention | 1 minute after completion (a further statement says up to 5 minutes when `wait` is used; the two statements are not reconciled)",
    section: "Limits", source: "spec", severity: "warning", kind: "transition",
  },
  // Public model endpoints.
  {
    id: "jobs.public.same-paths", title: "Public model endpoints answer the same paths with a model slug as endpoint id",
    spec: "Public model endpoints use the same paths with a model slug as <endpoint_id>", section: `${JOBS} › rule 9`,
    source: "spec", severity: "error", kind: "request",
  },
  {
    id: "jobs.public.image-output", title: "An image model's runsync output carries `image_url` (and a `seed` integer)",
    spec: "`runsync` with an input holding a prompt, width and height returns an output with an `image_url`.", section: `${JOBS} › rule 9`,
    source: "spec", severity: "error", kind: "response",
  },
] as const satisfies readonly Rule[];
