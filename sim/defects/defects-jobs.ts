/** Defects of the job endpoints: submission, every job operation, retention and ttl, payload limits. */
import { problemBody } from "../api/problem.ts";
import type { Defect } from "./defect.ts";
import { type Json, answer, editAnswer, editBody, editJob, isObject, objectsWith, ok, withQuery } from "./edits.ts";

const SUBMIT = new Set(["jobRun", "jobRunsync"]);
const READS = new Set(["jobStatus", "jobStatusSync", "jobRunsync"]);
const STATUS = new Set(["jobStatus"]);
const MINUTE_US = 60_000_000;

const onSubmit = (edit: (b: Json) => void): Defect["request"] => (req, at) => (SUBMIT.has(at.op ?? "") ? editBody(req, edit) : req);
const policy = (b: Json): Json | undefined => (isObject(b.policy) ? b.policy : undefined);
const jobKey = (at: { params: Readonly<Record<string, string>> }) => `${at.params.endpointId}/${at.params.jobId}`;

/** The route's body limit doubled at the transport. */
const doubleLimit = (pattern: string): Defect["routes"] => (routes) => routes.map((r) => (r.pattern === pattern && r.bodyLimit ? { ...r, bodyLimit: 2 * r.bodyLimit } : r));
/** The body size the model is told is half the real one, so its own payload check passes twice as much. */
const halveSize = (op: string): Defect["request"] => (req, at) => {
  const n = Number(req.headers["content-length"]);
  return at.op === op && n > 0 ? { ...req, headers: { ...req.headers, "content-length": String(Math.floor(n / 2)) } } : req;
};

/** cancel that, for a job in `status`, answers CANCELLED without cancelling it. */
function cancelOnlyUnless(status: string): Defect["around"] {
  return (req, at, next) => {
    if (at.op !== "jobCancel") return next(req);
    const seen = next({ ...req, method: "GET", path: `/v2/${at.params.endpointId}/status/${at.params.jobId}`, body: undefined });
    if (seen.kind === "response" && isObject(seen.response.body) && seen.response.body.status === status) {
      return { kind: "response", response: ok({ id: at.params.jobId, status: "CANCELLED" }) };
    }
    return next(req);
  };
}

export const jobDefects: readonly Defect[] = [
  // Submission.
  { name: "submit-without-input", area: "jobs.submit", rule: "jobs.submit.input-object", does: "run and runsync accept a body without `input` (as {})",
    request: onSubmit((b) => { if (!isObject(b.input)) b.input = {}; }) },
  { name: "submit-keeps-unknown-key", area: "jobs.submit", rule: "jobs.submit.unknown-key", does: "run and runsync drop unknown body keys instead of refusing them",
    request: onSubmit((b) => { for (const k of Object.keys(b)) if (!["input", "webhook", "policy", "s3Config"].includes(k)) delete b[k]; }) },
  { name: "submit-bad-webhook", area: "jobs.submit", rule: "jobs.submit.webhook-url", does: "A webhook that is not an http(s) URL is dropped silently",
    request: onSubmit((b) => { if ("webhook" in b && !(typeof b.webhook === "string" && /^https?:\/\//.test(b.webhook))) delete b.webhook; }) },
  { name: "submit-ttl-unchecked", area: "jobs.submit", rule: "jobs.submit.policy-ttl", does: "A policy.ttl out of range is ignored",
    request: onSubmit((b) => { const p = policy(b); if (p && "ttl" in p && !(Number.isInteger(p.ttl) && (p.ttl as number) >= 10_000 && (p.ttl as number) <= 604_800_000)) delete p.ttl; }) },
  { name: "submit-timeout-unchecked", area: "jobs.submit", rule: "jobs.submit.policy-execution-timeout", does: "A policy.executionTimeout out of range is ignored",
    request: onSubmit((b) => { const p = policy(b); if (p && "executionTimeout" in p && !(Number.isInteger(p.executionTimeout) && (p.executionTimeout as number) >= 5_000 && (p.executionTimeout as number) <= 604_800_000)) delete p.executionTimeout; }) },
  { name: "submit-policy-not-object", area: "jobs.submit", rule: "jobs.submit.field-type", does: "A `policy` or `s3Config` that is not an object is ignored",
    request: onSubmit((b) => { for (const k of ["policy", "s3Config"]) if (k in b && !isObject(b[k])) delete b[k]; const p = policy(b); if (p && "lowPriority" in p && typeof p.lowPriority !== "boolean") delete p.lowPriority; }) },
  { name: "runsync-wait-unchecked", area: "jobs.submit", rule: "jobs.runsync.wait-range", does: "A runsync `wait` out of range is ignored",
    request: (req, at) => (at.op === "jobRunsync" && req.query.wait !== undefined && !(/^\d+$/.test(req.query.wait) && +req.query.wait >= 1000 && +req.query.wait <= 300_000) ? withQuery(req, (q) => delete q.wait) : req),
    legalUnderLenient: "`wait` is \"integer milliseconds, 1000 to 300000, default 90000\": the sentence gives the range, not the answer to a value outside it; a wait of the default 90000 ms, inside the range, is what a service that ignores a bad `wait` takes" },
  { name: "status-ttl-unchecked", area: "jobs.submit", rule: "jobs.status.ttl-query", does: "A `ttl` query that is not a positive whole number is ignored",
    request: (req, at) => (at.op === "jobStatus" && req.query.ttl !== undefined && !/^[1-9]\d*$/.test(req.query.ttl) ? withQuery(req, (q) => delete q.ttl) : req),
    legalUnderLenient: "`ttl` is \"integer milliseconds, per-job time-to-live\": the sentence gives its type, not the answer to a value that is no positive integer; the job read as if no `ttl` were sent is one a correct service may give" },
  { name: "empty-body-400", area: "jobs.submit", rule: "jobs.empty-body", does: "cancel and purge-queue answer 400 to an empty JSON body instead of reading it as {}",
    response: (res, req, at) => ((at.op === "jobCancel" || at.op === "jobPurgeQueue") && res.status < 300 && req.headers["content-length"] === "0"
      ? answer(res, { status: 400, headers: { ...res.headers, "content-type": "application/problem+json" }, body: problemBody(400, "the body is not a JSON object") }) : res) },
  { name: "run-limit-20mb", area: "jobs.payload", rule: "jobs.payload.run-limit", does: "`run` accepts bodies up to 20 MB (the transport's limit doubled, the size counted in halves)",
    routes: doubleLimit("/v2/:endpointId/run"), request: halveSize("jobRun") },
  { name: "runsync-limit-40mb", area: "jobs.payload", rule: "jobs.payload.runsync-limit", does: "`runsync` accepts bodies up to 40 MB (the transport's limit doubled, the size counted in halves)",
    routes: doubleLimit("/v2/:endpointId/runsync"), request: halveSize("jobRunsync") },

  // Operations.
  { name: "unknown-job-queued", area: "jobs.operations", rule: "jobs.not-found", does: "status of an unknown job id answers 200 IN_QUEUE",
    response: (res, _req, at) => (at.op === "jobStatus" && res.status === 404 ? ok({ id: at.params.jobId, status: "IN_QUEUE" }, { ...res.headers, "content-type": "application/json; charset=utf-8" }) : res) },
  { name: "run-answers-queued", area: "jobs.operations", rule: "jobs.run.in-queue", does: "`run` answers status QUEUED",
    response: (res, _req, at) => editJob(res, at, new Set(["jobRun"]), (j) => { if (j.status === "IN_QUEUE") j.status = "QUEUED"; }) },
  { name: "runsync-returns-early", area: "jobs.operations", rule: "jobs.runsync.complete-result", does: "runsync answers at once, before the job finishes",
    deadline: (deadline, at) => (at.op === "jobRunsync" ? at.now : deadline) },
  { name: "runsync-elapsed-408", area: "jobs.operations", rule: "jobs.runsync.wait-elapsed", does: "A runsync whose wait elapses answers 408",
    response: (res, _req, at) => (at.op === "jobRunsync" && res.status === 200 && isObject(res.body) && (res.body.status === "IN_QUEUE" || res.body.status === "IN_PROGRESS")
      ? answer(res, { status: 408, headers: { ...res.headers, "content-type": "application/problem+json" }, body: problemBody(408, "timed out") }) : res) },
  { name: "status-sync-no-id", area: "jobs.operations", rule: "jobs.status-sync", does: "status-sync answers without the job's id",
    response: (res, _req, at) => editJob(res, at, new Set(["jobStatusSync"]), (j) => delete j.id) },
  { name: "status-field-renamed", area: "jobs.operations", rule: "jobs.status.values", does: "status answers the job's state as `state`",
    response: (res, _req, at) => editJob(res, at, STATUS, (j) => { j.state = j.status; delete j.status; }) },
  { name: "failed-without-error", area: "jobs.operations", rule: "jobs.failed-error", does: "A FAILED job carries no `error`",
    response: (res, _req, at) => editJob(res, at, READS, (j) => { if (j.status === "FAILED") delete j.error; }) },
  { name: "delay-time-seconds", area: "jobs.operations", rule: "jobs.delay-time", does: "delayTime is given in seconds",
    response: (res, _req, at) => editJob(res, at, READS, (j) => { if (typeof j.delayTime === "number") j.delayTime = Math.round(j.delayTime / 1000); }) },
  { name: "no-execution-time", area: "jobs.operations", rule: "jobs.execution-time", does: "A completed job carries no executionTime",
    response: (res, _req, at) => editJob(res, at, READS, (j) => { if (j.status === "COMPLETED") delete j.executionTime; }) },
  { name: "completed-without-output", area: "jobs.operations", rule: "jobs.completed-output", does: "status of a COMPLETED job leaves out its output",
    response: (res, _req, at) => editJob(res, at, STATUS, (j) => { if (j.status === "COMPLETED") delete j.output; }) },
  { name: "no-worker-id", area: "jobs.operations", rule: "jobs.worker-id", does: "A completed job does not name its worker",
    response: (res, _req, at) => editJob(res, at, READS, (j) => { if (j.status === "COMPLETED") delete j.workerId; }) },
  { name: "no-input-echo", area: "jobs.operations", rule: "jobs.input-echo", does: "A job in progress does not echo its input",
    response: (res, _req, at) => editJob(res, at, READS, (j) => { if (j.status === "IN_PROGRESS") delete j.input; }) },
  { name: "execution-timeout-ignored", area: "jobs.operations", rule: "jobs.policy.execution-timeout", does: "policy.executionTimeout is ignored: the job runs on",
    request: onSubmit((b) => { const p = policy(b); if (p) delete p.executionTimeout; }) },
  { name: "cancel-lies", area: "jobs.operations", rule: "jobs.cancel.never-completes", does: "cancel answers CANCELLED but the job runs on to COMPLETED",
    around: (req, at, next) => (at.op === "jobCancel" ? next({ ...req, method: "GET", path: `/v2/${at.params.endpointId}/status/${at.params.jobId}`, body: undefined }) : next(req)),
    response: (res, _req, at) => (at.op === "jobCancel" && res.status === 200 ? answer(res, { body: { id: at.params.jobId, status: "CANCELLED" } }) : res) },
  { name: "cancel-skips-queued", area: "jobs.operations", rule: "jobs.cancel.queued", does: "cancel of a queued job answers CANCELLED but leaves it in the queue",
    around: cancelOnlyUnless("IN_QUEUE") },
  { name: "cancel-skips-running", area: "jobs.operations", rule: "jobs.cancel.running", does: "cancel of a job in progress answers CANCELLED but lets it run on",
    around: cancelOnlyUnless("IN_PROGRESS") },
  { name: "failed-reads-cancelled", area: "jobs.operations", rule: "jobs.transition-legal", does: "A job whose handler failed is reported CANCELLED, which only a cancel may bring",
    response: (res, _req, at) => editJob(res, at, READS, (j) => { if (j.status === "FAILED") { j.status = "CANCELLED"; delete j.error; } }) },
  { name: "purge-cancels-running", area: "jobs.operations", rule: "jobs.purge.queued-only", does: "purge-queue also cancels the endpoint's jobs in progress",
    response: (res, _req, at) => {
      if (SUBMIT.has(at.op ?? "") && res.status < 300 && isObject(res.body) && typeof res.body.id === "string") at.memory.set(`${at.params.endpointId}/${res.body.id}`, true);
      return res;
    },
    around: (req, at, next) => {
      if (at.op === "jobPurgeQueue") {
        for (const key of [...at.memory.keys()]) {
          const [endpoint, id] = key.split("/");
          if (endpoint !== at.params.endpointId) continue;
          const seen = next({ ...req, method: "GET", path: `/v2/${endpoint}/status/${id}`, body: undefined });
          if (seen.kind === "response" && isObject(seen.response.body) && seen.response.body.status === "IN_PROGRESS") next({ ...req, path: `/v2/${endpoint}/cancel/${id}`, body: {} });
        }
      }
      return next(req);
    } },
  { name: "cancel-answers-cancelling", area: "jobs.operations", rule: "jobs.cancel.response", does: "cancel answers status CANCELLING",
    response: (res, _req, at) => editJob(res, at, new Set(["jobCancel"]), (j) => { j.status = "CANCELLING"; }) },
  { name: "retry-completed-ok", area: "jobs.operations", rule: "jobs.retry.only-failed", does: "retry of a job that is not FAILED or TIMED_OUT answers 200 IN_QUEUE",
    response: (res, _req, at) => (at.op === "jobRetry" && res.status === 409 ? ok({ id: at.params.jobId, status: "IN_QUEUE" }, { ...res.headers, "content-type": "application/json; charset=utf-8" }) : res) },
  { name: "retry-new-id", area: "jobs.operations", rule: "jobs.retry.same-id", does: "retry answers a new job id",
    response: (res, _req, at) => editJob(res, at, new Set(["jobRetry"]), (j) => { j.id = `${String(j.id)}-retry`; }) },
  { name: "retry-keeps-output", area: "jobs.operations", rule: "jobs.retry.output-removed", does: "A retried job keeps its previous attempt's output and error until it finishes again",
    response: (res, _req, at) => {
      const key = jobKey(at);
      if (at.op === "jobRetry" && res.status === 200) at.memory.set(`retried:${key}`, true);
      if (at.op !== "jobStatus" || res.status !== 200 || !isObject(res.body)) return res;
      const body = res.body;
      const kept = ["output", "error"].filter((f) => f in body);
      if (kept.length) {
        at.memory.set(`last:${key}`, Object.fromEntries(kept.map((f) => [f, body[f]])));
        return res;
      }
      const old = at.memory.get(`last:${key}`) as Json | undefined;
      return old && at.memory.get(`retried:${key}`) ? editAnswer(res, (j) => Object.assign(j, old)) : res;
    } },
  { name: "retry-drops-input", area: "jobs.operations", rule: "jobs.retry.original-input", does: "A retried job is requeued without its input: it reads back `input: {}`",
    response: (res, _req, at) => {
      const key = jobKey(at);
      if (at.op === "jobRetry" && res.status === 200) at.memory.set(`retried:${key}`, true);
      if (!READS.has(at.op ?? "") || res.status !== 200 || !at.memory.get(`retried:${key}`)) return res;
      return editAnswer(res, (j) => { if ("input" in j) j.input = {}; });
    } },
  { name: "health-for-any-endpoint", area: "jobs.operations", rule: "jobs.reserved-endpoint-ids", does: "health answers for any endpoint id, REST path segments such as `pods` included",
    response: (res, req) => (req.method === "GET" && /^\/v2\/[^/]+\/health$/.test(req.path) && res.status === 404
      ? ok({ jobs: { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 }, workers: { idle: 0, running: 0 } }, { ...res.headers, "content-type": "application/json; charset=utf-8" }) : res) },
  { name: "retry-answers-retrying", area: "jobs.operations", rule: "jobs.retry.in-queue", does: "retry answers status RETRYING",
    response: (res, _req, at) => editJob(res, at, new Set(["jobRetry"]), (j) => { j.status = "RETRYING"; }) },
  { name: "retry-expired-ok", area: "jobs.operations", rule: "jobs.retry.expired", does: "retry of an expired job answers 200 IN_QUEUE",
    response: (res, _req, at) => (at.op === "jobRetry" && res.status === 404 ? ok({ id: at.params.jobId, status: "IN_QUEUE" }, { ...res.headers, "content-type": "application/json; charset=utf-8" }) : res) },
  { name: "purge-count-off-by-one", area: "jobs.operations", rule: "jobs.purge.count", does: "purge-queue reports one job more than it removed",
    response: (res, _req, at) => (at.op === "jobPurgeQueue" && res.status === 200 ? editAnswer(res, (b) => { if (typeof b.removed === "number") b.removed += 1; }) : res) },
  { name: "health-counters-strings", area: "jobs.operations", rule: "jobs.health.shape", does: "health's counters are strings",
    response: (res, _req, at) => (at.op === "jobHealth" && res.status === 200 ? editAnswer(res, (b) => { if (isObject(b.jobs)) for (const k of Object.keys(b.jobs)) b.jobs[k] = String(b.jobs[k]); }) : res) },
  { name: "health-queue-off-by-one", area: "jobs.operations", rule: "jobs.health.counters", does: "health counts one queued job too many",
    response: (res, _req, at) => (at.op === "jobHealth" && res.status === 200 ? editAnswer(res, (b) => { if (isObject(b.jobs) && typeof b.jobs.inQueue === "number") b.jobs.inQueue += 1; }) : res) },
  { name: "stream-one-big-chunk", area: "jobs.operations", rule: "jobs.stream.chunk-size", does: "stream sends all its output as one chunk, however large",
    response: (res, _req, at) => (at.op === "jobStream" && res.status === 200 ? editAnswer(res, (b) => {
      if (Array.isArray(b.stream) && b.stream.length > 1 && b.stream.every((c) => isObject(c) && typeof c.output === "string")) b.stream = [{ output: b.stream.map((c) => (c as Json).output).join("") }];
    }) : res) },
  { name: "stream-reversed", area: "jobs.operations", rule: "jobs.stream.reassembly", does: "stream sends its chunks in reverse order",
    response: (res, _req, at) => (at.op === "jobStream" && res.status === 200 ? editAnswer(res, (b) => { if (Array.isArray(b.stream)) b.stream = [...b.stream].reverse(); }) : res) },
  { name: "stream-only-at-end", area: "jobs.operations", rule: "jobs.stream.incremental", does: "stream yields nothing until the job is final",
    response: (res, _req, at) => (at.op === "jobStream" && res.status === 200 ? editAnswer(res, (b) => { if (b.status === "IN_PROGRESS" || b.status === "IN_QUEUE") b.stream = []; }) : res) },

  { name: "stream-chunks-key", area: "jobs.operations", rule: "jobs.stream.shape", does: "stream answers its chunks under `chunks`",
    response: (res, _req, at) => (at.op === "jobStream" && res.status === 200 ? editAnswer(res, (b) => { if ("stream" in b) { b.chunks = b.stream; delete b.stream; } }) : res) },
  { name: "public-model-without-health", area: "jobs.operations", rule: "jobs.public.same-paths", does: "A public model endpoint (one whose jobs answer images) serves run and status but answers health 404",
    response: (res, _req, at) => {
      const endpoint = at.params.endpointId;
      if (READS.has(at.op ?? "") && res.status === 200 && isObject(res.body) && objectsWith(res.body.output, "image_url").length > 0) at.memory.set(endpoint, true);
      return at.op === "jobHealth" && at.memory.get(endpoint) ? answer(res, { status: 404, headers: { ...res.headers, "content-type": "application/problem+json" }, body: problemBody(404, "no such route") }) : res;
    } },
  { name: "image-output-without-url", area: "jobs.operations", rule: "jobs.public.image-output", does: "An image model's output leaves out image_url",
    response: (res, _req, at) => editJob(res, at, READS, (j) => { for (const o of objectsWith(j.output, "image_url")) delete o.image_url; }) },

  // Retention and ttl.
  { name: "results-never-expire", area: "jobs.retention", rule: "jobs.retention", does: "A final job's status is answered forever (the expiry never happens)",
    response: (res, _req, at) => {
      if (at.op !== "jobStatus") return res;
      const key = jobKey(at);
      if (res.status === 200 && isObject(res.body) && ["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"].includes(String(res.body.status))) at.memory.set(key, res);
      return res.status === 404 && at.memory.has(key) ? (at.memory.get(key) as typeof res) : res;
    } },
  { name: "run-result-10-minutes", area: "jobs.retention", rule: "jobs.retention.run", does: "A `run` result is dropped 10 minutes after it was first seen final",
    response: (res, _req, at) => {
      if (at.op !== "jobStatus" || res.status !== 200 || !isObject(res.body) || res.body.status !== "COMPLETED") return res;
      const key = jobKey(at);
      const first = (at.memory.get(key) as number | undefined) ?? at.now;
      at.memory.set(key, first);
      return at.now - first > 10 * MINUTE_US ? answer(res, { status: 404, headers: { ...res.headers, "content-type": "application/problem+json" }, body: problemBody(404, "no such job") }) : res;
    } },
  { name: "runsync-result-kept-30-minutes", area: "jobs.retention", rule: "jobs.retention.runsync", does: "A `runsync` result is kept 30 minutes like a `run` result",
    response: (res, _req, at) => {
      const key = jobKey(at);
      if (at.op === "jobRunsync" && res.status === 200 && isObject(res.body) && res.body.status === "COMPLETED") at.memory.set(`${at.params.endpointId}/${String(res.body.id)}`, { res: { ...res, body: res.body }, at: at.now });
      if (at.op !== "jobStatus" || res.status !== 404) return res;
      const kept = at.memory.get(key) as { res: typeof res; at: number } | undefined;
      return kept && at.now - kept.at < 30 * MINUTE_US ? kept.res : res;
    } },
  { name: "status-ttl-ignored", area: "jobs.retention", rule: "jobs.status.ttl", does: "A valid `ttl` query of status is ignored",
    request: (req, at) => (at.op === "jobStatus" && /^[1-9]\d*$/.test(req.query.ttl ?? "") ? withQuery(req, (q) => delete q.ttl) : req) },
  { name: "runsync-result-kept-for-wait", area: "jobs.retention", rule: "jobs.runsync.wait-not-retention", does: "A runsync result is dropped once its `wait` has passed",
    response: (res, req, at) => {
      if (at.op === "jobRunsync" && res.status === 200 && isObject(res.body) && typeof res.body.id === "string") {
        const wait = /^\d+$/.test(req.query.wait ?? "") ? Number(req.query.wait) : 90_000;
        at.memory.set(`${at.params.endpointId}/${res.body.id}`, Number(at.now) + wait * 1000);
      }
      const until = at.op === "jobStatus" ? at.memory.get(jobKey(at)) : undefined;
      return typeof until === "number" && Number(at.now) > until ? answer(res, { status: 404, headers: { ...res.headers, "content-type": "application/problem+json" }, body: problemBody(404, "no such job") }) : res;
    } },
  { name: "policy-ttl-ignored", area: "jobs.retention", rule: "jobs.policy.ttl", does: "policy.ttl is ignored: old queued jobs are never dropped",
    request: onSubmit((b) => { const p = policy(b); if (p) delete p.ttl; }) },
];
