/**
 * The rules one answer can be judged on by itself: problem+json errors, JSON success bodies, the
 * RateLimit headers, and the shapes of the spec's records (sim/api/schemas) per operation.
 * Pure: the same exchange gives the same judgements, whoever sent it.
 */
import { schemaErrors } from "../checks/support/schema.ts";
import type { SeenAnswer, SeenExchange } from "./answer.ts";
import { isRest, type Operation } from "./classify.ts";
import { jsonIssue, problemFormatProblem, statusMatchesProblem, titleJudgeable, titleProblem, type Profile } from "./error-body.ts";
import { verdict, type CheckInput, type Judgement, type PassiveCheck } from "./judgement.ts";
import { podInvariants } from "./pod-invariants.ts";
import { graphqlAnswers, keyAndDefaults } from "./graphql-answers.ts";
import { graphqlFields } from "./graphql-fields.ts";
import { policyWindowProblems, presenceProblem, structuredFieldProblems, wellFormedProblems } from "./ratelimit-headers.ts";

const is2xx = (a: SeenAnswer) => a.status >= 200 && a.status < 300;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const show = (v: unknown) => (v === undefined ? "absent" : JSON.stringify(v)?.slice(0, 120));

const POD_STATUSES = ["PROVISIONING", "STARTING", "RUNNING", "EXITED", "ERROR", "TERMINATED"];
const POD_ACTIONS = ["start", "stop", "restart", "terminate"];
const JOB_STATUSES = ["IN_QUEUE", "IN_PROGRESS", "COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"];
/** The final job states a job may have reached before a cancel arrived. */
const FINISHED: ReadonlySet<string> = new Set(["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"]);

export const errorFormat: PassiveCheck = {
  name: "error-format",
  rules: [
    { id: "errors.problem-json", side: "target" },
    { id: "errors.same-body", side: "target" },
    { id: "errors.status-matches", side: "target" },
    { id: "errors.title-matches-status", side: "target" },
  ],
  judge({ exchange, op, profile }: CheckInput): Judgement[] {
    const a = exchange.answer;
    if (!a || a.status < 400 || !isRest(op) || a.truncated) return [];
    const formatRule = op.kind === "createPod" ? "errors.problem-json" : "errors.same-body";
    const quote = formatRule === "errors.problem-json" ? "Bodies follow ErrorResponse with content type `application/problem+json`." : "Any other error uses the same body";
    const out = [verdict(formatRule, problemFormatProblem(a, quote))];
    if (isObj(a.json) && Object.hasOwn(a.json, "status")) out.push(verdict("errors.status-matches", statusMatchesProblem(a)));
    if (titleJudgeable(a)) out.push(verdict("errors.title-matches-status", titleProblem(a, profile)));
    return out;
  },
};

/** Operations whose success answers carry a JSON body (deletePod's 204 carries none). */
function answersJson(op: Operation): boolean {
  return op.kind === "createPod" || op.kind === "listPods" || op.kind === "getPod" || op.kind === "updatePod" || op.kind === "catalog" || op.kind === "job";
}

export const jsonBodies: PassiveCheck = {
  name: "json-bodies",
  rules: [{ id: "errors.json-bodies", side: "target" }],
  judge({ exchange, op }) {
    const a = exchange.answer;
    if (!a || !is2xx(a) || a.status === 204 || !answersJson(op) || a.size === 0) return [];
    const problem = a.truncated ? (jsonIssue({ ...a, json: {} }) ?? undefined) : jsonIssue(a);
    return [verdict("errors.json-bodies", problem && `a JSON body with Content-Type application/json ("All bodies are JSON (\`Content-Type: application/json\`).") ; found ${problem}`)];
  },
};

/** The spec's own operations, whose successful answers carry the rate-limit headers; GraphQL's only under strict (choices.md). */
function carriesRateLimit(op: Operation, profile: Profile): boolean {
  if (op.kind === "job" || op.kind === "createPod" || op.kind === "listPods") return true;
  return op.kind === "graphql" && profile === "strict";
}

export const rateLimitHeaders: PassiveCheck = {
  name: "ratelimit-headers",
  rules: [
    { id: "ratelimit.headers-present", side: "target" },
    { id: "ratelimit.headers-well-formed", side: "target" },
    { id: "ratelimit.policy-windows", side: "target" },
    { id: "ratelimit.structured-fields", side: "target" },
    { id: "ratelimit.retry-after", side: "target" },
  ],
  judge({ exchange, op, profile }) {
    const a = exchange.answer;
    if (!a) return [];
    if (a.status === 429) {
      const problems: string[] = [];
      const ra = a.headers["retry-after"];
      if (ra === undefined || !/^\s*\d+\s*$/.test(ra)) problems.push(`Retry-After ${ra === undefined ? "absent" : JSON.stringify(ra)}, not integer seconds`);
      const presence = presenceProblem(a);
      if (presence) problems.push(presence);
      return [verdict("ratelimit.retry-after", problems.length ? `a 429 with Retry-After (integer seconds), RateLimit and RateLimit-Policy; found ${problems.join("; ")}` : undefined)];
    }
    if (!is2xx(a) || !carriesRateLimit(op, profile)) return [];
    const presence = presenceProblem(a);
    const out = [verdict("ratelimit.headers-present", presence && `RateLimit and RateLimit-Policy on every successful answer ("Both headers also accompany successful responses"); found ${presence}`)];
    if (presence) return out;
    const join = (p: readonly string[]) => (p.length ? p.join("; ") : undefined);
    out.push(verdict("ratelimit.headers-well-formed", join(wellFormedProblems(a))));
    out.push(verdict("ratelimit.policy-windows", join(policyWindowProblems(a))));
    out.push(verdict("ratelimit.structured-fields", join(structuredFieldProblems(a))));
    return out;
  },
};

function podRecordProblems(pod: unknown, where: string): { status?: string; actions?: string } {
  if (!isObj(pod)) return {};
  const out: { status?: string; actions?: string } = {};
  if (Object.hasOwn(pod, "status") && !POD_STATUSES.includes(pod.status as string)) out.status = `${where}status ${show(pod.status)} is not one of ${POD_STATUSES.join(", ")}`;
  if (Object.hasOwn(pod, "actions")) {
    const bad = Array.isArray(pod.actions) ? pod.actions.filter((x) => !POD_ACTIONS.includes(x as string)) : [pod.actions];
    if (bad.length) out.actions = `${where}actions holds ${bad.map(show).join(", ")}, not PodAction values (${POD_ACTIONS.join(", ")})`;
  }
  return out;
}

function podsOf(op: Operation, json: unknown): unknown[] {
  if (op.kind === "listPods") return isObj(json) && Array.isArray(json.pods) ? json.pods : Array.isArray(json) ? json : [];
  return isObj(json) ? [json] : [];
}

export const podRecords: PassiveCheck = {
  name: "pod-records",
  rules: [
    { id: "pods.status-enum", side: "target" },
    { id: "pods.actions-enum", side: "target" },
    { id: "pods.list.shape", side: "target" },
    { id: "pods.create.created-201", side: "target" },
    { id: "pods.create.response-required-fields", side: "target" },
    { id: "pods.create.status-provisioning", side: "target" },
    { id: "pods.delete.no-content", side: "target" },
    { id: "pods.action.response-status", side: "target" },
  ],
  judge({ exchange, op }) {
    const a = exchange.answer;
    if (!a || !is2xx(a) || a.truncated) return [];
    const out: Judgement[] = [];
    if (op.kind === "podAction") {
      // choices.md: "200 Pod (start, stop, restart); 204 (terminate)"; the action is the path's word or the body's `action`.
      const body = exchange.request.json;
      const action = op.action === "action" && isObj(body) ? body.action : op.action;
      if (action === "terminate") out.push(verdict("pods.action.response-status", a.status === 204 && a.size === 0 ? undefined : `204 without a body for terminate ("200 Pod (start, stop, restart); 204 (terminate)"); got ${a.status} with ${a.size} bytes`));
      else if (action === "start" || action === "stop" || action === "restart") {
        out.push(verdict("pods.action.response-status", a.status === 200 && isObj(a.json) ? undefined : `200 with the pod for ${action} ("200 Pod (start, stop, restart); 204 (terminate)"); got ${a.status} ${show(a.json)}`));
      }
    }
    if (op.kind === "deletePod") {
      out.push(verdict("pods.delete.no-content", a.status === 204 && a.size === 0 ? undefined : `204 without a body ("204, no body (pod becomes TERMINATED)"); got ${a.status} with ${a.size} bytes`));
      return out;
    }
    if (op.kind !== "createPod" && op.kind !== "getPod" && op.kind !== "listPods" && op.kind !== "updatePod") return out;
    if (op.kind === "createPod") {
      out.push(verdict("pods.create.created-201", a.status === 201 ? undefined : `201 for an accepted createPod ("Response 201 carries the pod"); got ${a.status}`));
      const errors = schemaErrors("Pod", a.json).slice(0, 8);
      out.push(verdict("pods.create.response-required-fields", errors.length ? `the created pod as a Pod record with every required field; ${errors.join("; ")}` : undefined));
      const status = isObj(a.json) ? a.json.status : undefined;
      out.push(verdict("pods.create.status-provisioning", status === "PROVISIONING" ? undefined : `the created pod in PROVISIONING ("Each created pod starts in \`PROVISIONING\`."); found status ${show(status)}`));
    }
    if (op.kind === "listPods") {
      const errors = schemaErrors("PodList", a.json).slice(0, 8);
      out.push(verdict("pods.list.shape", errors.length ? `{"pods": [Pod, ...]}; ${errors.join("; ")}` : undefined));
    }
    podsOf(op, a.json).forEach((pod, i) => {
      const where = op.kind === "listPods" ? `pods[${i}].` : "";
      const p = podRecordProblems(pod, where);
      if (isObj(pod) && Object.hasOwn(pod, "status")) out.push(verdict("pods.status-enum", p.status));
      if (isObj(pod) && Object.hasOwn(pod, "actions")) out.push(verdict("pods.actions-enum", p.actions));
    });
    return out;
  },
};

const JOB_COUNTERS = ["completed", "failed", "inProgress", "inQueue", "retried"] as const;
const WORKER_COUNTERS = ["idle", "running"] as const;
const isCount = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= 0;

/** The stream chunk limit: 1 MB; the lenient profile reads MB as MiB, the more generous. */
export const chunkLimit = (profile: Profile) => (profile === "strict" ? 1_000_000 : 1_048_576);
const outputBytes = (output: unknown) => Buffer.byteLength(typeof output === "string" ? output : (JSON.stringify(output) ?? ""), "utf8");

export const jobRecords: PassiveCheck = {
  name: "job-records",
  rules: [
    { id: "jobs.run.in-queue", side: "target" },
    { id: "jobs.status.values", side: "target" },
    { id: "jobs.completed-output", side: "target" },
    { id: "jobs.execution-time", side: "target" },
    { id: "jobs.failed-error", side: "target" },
    { id: "jobs.cancel.response", side: "target" },
    { id: "jobs.retry.in-queue", side: "target" },
    { id: "jobs.health.shape", side: "target" },
    { id: "jobs.stream.shape", side: "target" },
    { id: "jobs.stream.chunk-size", side: "target" },
    { id: "jobs.worker-id", side: "target" },
    { id: "jobs.input-echo", side: "target" },
    { id: "jobs.retry.same-id", side: "target" },
    { id: "jobs.status-sync", side: "target" },
    { id: "jobs.runsync.wait-elapsed", side: "target" },
    { id: "jobs.empty-body", side: "target" },
  ],
  judge({ exchange, op, profile }) {
    const a = exchange.answer;
    if (!a || op.kind !== "job") return [];
    // choices.md: cancel and purge-queue read an empty body sent as application/json (the Python client sends none) as {}.
    const json = /json/i.test(exchange.request.headers["content-type"] ?? "");
    if ((op.op === "cancel" || op.op === "purge-queue") && json && exchange.request.size === 0 && (a.status === 400 || is2xx(a))) {
      return [verdict("jobs.empty-body", a.status === 400 ? `an empty body read as {} by ${op.op} (docs/choices.md); got 400` : undefined), ...jobRecordsOf(exchange, op, a, profile)];
    }
    return jobRecordsOf(exchange, op, a, profile);
  },
};

function jobRecordsOf(exchange: SeenExchange, op: Extract<Operation, { kind: "job" }>, a: SeenAnswer, profile: Profile): Judgement[] {
  // A runsync whose wait ran out answers 200 with the job's id and status (choices.md), not a timeout status.
  if (op.op === "runsync" && a.status === 408) {
    return [verdict("jobs.runsync.wait-elapsed", `200 {"id", "status": "IN_QUEUE" | "IN_PROGRESS"} from a runsync whose wait elapses first (docs/choices.md); got ${a.status}`)];
  }
  if (!is2xx(a)) return [];
  if (a.truncated) {
    // Judged on its size: a stream answer above the bound holding one chunk is a chunk over it.
    return [];
  }
  const j = a.json;
  const status = isObj(j) ? j.status : undefined;
  const idStatus = (ruleId: string, want: string, schema: string, quote: string) => {
    const errors = schemaErrors(schema, j).slice(0, 6);
    if (status !== want) errors.push(`status ${show(status)}, not ${want}`);
    return [verdict(ruleId, errors.length ? `${quote}; found ${errors.join("; ")}` : undefined)];
  };
  switch (op.op) {
    case "run":
      return idStatus("jobs.run.in-queue", "IN_QUEUE", "JobSubmitResponse", "`{id, status}` with status IN_QUEUE");
    case "cancel":
      // The spec defines cancel for queued and running jobs: a cancel that raced the job's end
      // (answered with the job's final status) is no cancel, and the spec fixes no answer for it.
      if (typeof status === "string" && status !== "CANCELLED" && FINISHED.has(status)) return [];
      return idStatus("jobs.cancel.response", "CANCELLED", "CancelResponse", "`{id, status}` with status CANCELLED");
    case "retry": {
      const id = isObj(j) ? j.id : undefined;
      return [
        ...idStatus("jobs.retry.in-queue", "IN_QUEUE", "RetryResponse", "`{id, status}` with status IN_QUEUE"),
        verdict("jobs.retry.same-id", id === op.jobId ? undefined : `a retry answer naming the same job id ${op.jobId} (retry keeps the job id); got id ${show(id)}`),
      ];
    }
    case "status":
    case "status-sync":
    case "runsync": {
      const out: Judgement[] = [];
      if (op.op === "status") {
        const errors = schemaErrors("Job", j).slice(0, 6);
        if (!JOB_STATUSES.includes(status as string)) errors.push(`status ${show(status)} is not a job state`);
        out.push(verdict("jobs.status.values", errors.length ? `a Job with one of the job states and an optional output; found ${errors.join("; ")}` : undefined));
      }
      if (status === "COMPLETED" && isObj(j)) {
        const missing = ["executionTime", "output"].filter((k) => !Object.hasOwn(j, k));
        out.push(verdict("jobs.completed-output", missing.length ? `a COMPLETED job with its executionTime and output ("executionTime and output are present"); found no ${missing.map((k) => `\`${k}\``).join(" and no ")}` : undefined));
        // Its own rule too ("present on completed jobs"): from one answer only its presence; its
        // bounds need the submission time and the handler's run, which `cpsim conform` arranges.
        out.push(verdict("jobs.execution-time", Object.hasOwn(j, "executionTime") ? undefined : "a COMPLETED job with its `executionTime` (\"present on completed jobs\"); found none"));
      }
      if (status === "COMPLETED" && isObj(j) && op.op !== "runsync") {
        // runsync's answer is "Job with status, delayTime, executionTime, output": the worker is the Job record's, read with status.
        out.push(verdict("jobs.worker-id", typeof j.workerId === "string" && j.workerId !== "" ? undefined : `workerId, a non-empty string, on the COMPLETED job (present on a completed job); got ${show(j.workerId)}`));
      }
      if (status === "IN_PROGRESS" && isObj(j) && op.op === "status") {
        // Presence from one answer; that it equals the submitted input needs the run request, which `cpsim conform` sends itself.
        out.push(verdict("jobs.input-echo", isObj(j.input) ? undefined : `the job's input echoed while it is IN_PROGRESS ("Echoed while the job is in progress"); got ${show(j.input)}`));
      }
      if (op.op === "status-sync" && isObj(j)) {
        const problem = j.id !== op.jobId ? `id ${show(j.id)}` : !JOB_STATUSES.includes(status as string) ? `status ${show(status)}` : undefined;
        out.push(verdict("jobs.status-sync", problem && `status-sync/{id} answers like runsync (docs/choices.md): the job with id ${op.jobId} and its status; got ${problem}`));
      }
      if (op.op === "runsync" && isObj(j) && (status === "IN_QUEUE" || status === "IN_PROGRESS")) {
        out.push(verdict("jobs.runsync.wait-elapsed", typeof j.id === "string" ? undefined : `200 {"id", "status": "${status}"} from a runsync whose wait elapsed (docs/choices.md); got id ${show(j.id)}`));
      }
      if (status === "FAILED" && isObj(j)) out.push(verdict("jobs.failed-error", typeof j.error === "string" ? undefined : `a FAILED job with an \`error\` string; found error ${show(j.error)}`));
      return out;
    }
    case "health": {
      const problems = schemaErrors("HealthResponse", j);
      const body = j as { jobs?: Record<string, unknown>; workers?: Record<string, unknown> };
      for (const k of JOB_COUNTERS) if (isObj(body?.jobs) && !isCount(body.jobs[k])) problems.push(`jobs.${k} is ${show(body.jobs[k])}, not a count`);
      for (const k of WORKER_COUNTERS) if (isObj(body?.workers) && !isCount(body.workers[k])) problems.push(`workers.${k} is ${show(body.workers[k])}, not a count`);
      return [verdict("jobs.health.shape", problems.length ? `{jobs: {completed, failed, inProgress, inQueue, retried}, workers: {idle, running}}, all non-negative integers; found ${problems.join("; ")}` : undefined)];
    }
    case "stream": {
      const errors = schemaErrors("StreamResponse", j).slice(0, 6);
      const out = [verdict("jobs.stream.shape", errors.length ? `{status, stream: [chunk, ...]}; found ${errors.join("; ")}` : undefined)];
      const chunks = isObj(j) && Array.isArray(j.stream) ? j.stream : Array.isArray(j) ? j : [];
      const limit = chunkLimit(profile);
      for (const [i, chunk] of chunks.entries()) {
        const n = outputBytes(isObj(chunk) ? chunk.output : chunk);
        out.push(verdict("jobs.stream.chunk-size", n > limit ? `no stream chunk over 1 MB (${limit} bytes); chunk ${i} carries ${n} bytes` : undefined));
      }
      return out;
    }
    default:
      return [];
  }
}

export const catalogRecords: PassiveCheck = {
  name: "catalog-records",
  rules: [
    { id: "catalog.gpus.shape", side: "target" },
    { id: "catalog.cpus.shape", side: "target" },
    { id: "catalog.datacenters.shape", side: "target" },
    { id: "catalog.global-network-field", side: "target" },
  ],
  judge({ exchange, op, profile }) {
    const a = exchange.answer;
    if (!a || a.status !== 200 || op.kind !== "catalog" || a.truncated) return [];
    const schema = op.what === "gpus" ? "GpuCatalog" : op.what === "cpus" ? "CpuCatalog" : "DataCenterCatalog";
    const errors = schemaErrors(schema, a.json).slice(0, 8);
    const out = [verdict(`catalog.${op.what}.shape`, errors.length ? `a body shaped as docs/choices.md gives it; ${errors.join("; ")}` : undefined)];
    // Each data center says whether it has global networking: under strict as choices.md's boolean
    // `globalNetwork` (the lenient reading, which takes other forms, is conform's alone).
    if (op.what === "datacenters" && profile === "strict" && isObj(a.json) && Array.isArray(a.json.dataCenters)) {
      const bad = a.json.dataCenters.filter((dc) => !isObj(dc) || typeof dc.globalNetwork !== "boolean").map((dc) => (isObj(dc) ? show(dc.id) : show(dc)));
      out.push(verdict("catalog.global-network-field", bad.length ? `every data center with a boolean globalNetwork (docs/choices.md, strict); not so for ${bad.slice(0, 5).join(", ")}` : undefined));
    }
    return out;
  },
};

export const exchangeChecks: readonly PassiveCheck[] = [errorFormat, jsonBodies, rateLimitHeaders, podRecords, podInvariants, jobRecords, catalogRecords, graphqlAnswers, graphqlFields, keyAndDefaults];
