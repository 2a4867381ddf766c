/** Defects across the API: problem+json errors, auth and isolation, rate limits, GraphQL, the catalog. */
import { problemBody } from "../api/problem.ts";
import type { ApiResponse } from "../api/types.ts";
import type { Defect } from "./defect.ts";
import { GRAPHQL_OPS, type Json, answer, editAnswer, editGraphql, graphqlText, isObject, keyFor, setHeader, withKey, withQuery } from "./edits.ts";

const JOB_OP = /^job/;
const REST_POD_OPS = new Set(["listPods", "createPod", "getPod", "updatePod", "deletePod", "podAction"]);
const isProblem = (res: ApiResponse) => res.headers["content-type"]?.startsWith("application/problem+json") === true;
const editProblem = (res: ApiResponse, when: (status: number) => boolean, edit: (b: Json) => void): ApiResponse =>
  isProblem(res) && when(res.status) ? editAnswer(res, edit) : res;
/** Rewrites one GraphQL field of the selection, wherever it appears under `parent`. */
const graphqlField = (parent: string, edit: (o: Json) => void): Defect["response"] => (res, _req, at) =>
  editGraphql(res, at, parent, (o) => { const v = o[parent]; for (const x of Array.isArray(v) ? v : [v]) if (isObject(x)) edit(x); });

export const apiDefects: readonly Defect[] = [
  // problem+json.
  { name: "bad-request-plain-json", area: "errors", rule: "errors.problem-json", does: "A createPod 400 or 422 is sent as application/json",
    response: (res, _req, at) => ((res.status === 400 || res.status === 422) && isProblem(res) && at.op === "createPod" ? setHeader(res, "content-type", "application/json") : res) },
  { name: "not-found-plain-json", area: "errors", rule: "errors.same-body", does: "A REST 404 is sent as application/json",
    response: (res, _req, at) => (res.status === 404 && isProblem(res) && REST_POD_OPS.has(at.op ?? "") ? setHeader(res, "content-type", "application/json") : res) },
  { name: "conflict-error-field", area: "errors", rule: "errors.same-body", does: "A 409 answers `{error}` instead of the ErrorResponse body",
    response: (res) => (res.status === 409 && isProblem(res) && isObject(res.body) ? answer(res, { body: { error: res.body.detail } }) : res) },
  { name: "problem-status-400", area: "errors", rule: "errors.status-matches", does: "A 422's problem body says status 400",
    response: (res) => editProblem(res, (s) => s === 422, (b) => { b.status = 400; }) },
  { name: "problem-title-generic", area: "errors", rule: "errors.title-matches-status", does: "A 400's problem title is \"Error\"",
    response: (res) => editProblem(res, (s) => s === 400, (b) => { b.title = "Error"; }) },
  { name: "validation-without-errors", area: "errors", rule: "errors.validation-list", does: "A 422 leaves out the list of validation failures",
    response: (res) => editProblem(res, (s) => s === 422, (b) => delete b.errors),
    legalUnderLenient: "\"individual failures may be listed in `errors`\": may, so a 422 without the list is a correct answer" },
  { name: "success-text-plain", area: "errors", rule: "errors.json-bodies", does: "Successful pod answers are sent as text/plain",
    response: (res, _req, at) => (res.status === 200 && REST_POD_OPS.has(at.op ?? "") ? setHeader(res, "content-type", "text/plain; charset=utf-8") : res) },

  // Auth and isolation.
  { name: "jobs-without-key", area: "auth", rule: "auth.missing-key", does: "A job endpoint without a key serves the first account",
    request: (req, at) => (JOB_OP.test(at.op ?? "") && !req.headers.authorization?.trim() ? withKey(req, at.keys.find((k) => k.access === "full")!.key) : req) },
  { name: "malformed-key-last-word", area: "auth", rule: "auth.malformed-key", does: "A malformed Authorization header is read as its last word",
    request: (req, at) => {
      const words = req.headers.authorization?.trim().split(/\s+/) ?? [];
      const last = words.at(-1);
      return words.length > 1 && !/^bearer$/i.test(words[0]) && at.keys.some((k) => k.key === last) ? withKey(req, last!) : req;
    },
    legalUnderLenient: "it reads a valid key only out of a header naming another scheme before it (`Token <key>`, `Basic <key>`; a `Bearer` header with words after the key still gets its 401): the spec shows the key as `Bearer <key>` and alone, and what a header in another form holding a valid key is, it does not say; a service tolerant of the scheme word may accept it" },
  { name: "invalid-key-403", area: "auth", rule: "auth.invalid-key", does: "An unknown key answers 403",
    response: (res, _req, at) => (res.status === 401 && at.key !== undefined && at.account === undefined && !GRAPHQL_OPS.has(at.op ?? "") ? answer(res, { status: 403, body: problemBody(403, "forbidden") }) : res) },
  { name: "jobs-refuse-bearer", area: "auth", rule: "auth.bearer-header", does: "Job endpoints refuse the `Bearer` form",
    request: (req, at) => (JOB_OP.test(at.op ?? "") && /^bearer\s/i.test(req.headers.authorization ?? "") ? { ...req, headers: { ...req.headers, authorization: "Bearer-refused" } } : req) },
  { name: "jobs-refuse-bare-key", area: "auth", rule: "auth.bare-key-jobs", does: "Job endpoints refuse a bare key",
    request: (req, at) => (JOB_OP.test(at.op ?? "") && at.account !== undefined && !/^bearer\s/i.test(req.headers.authorization ?? "") && req.headers.authorization ? { ...req, headers: { ...req.headers, authorization: undefined } } : req) },
  { name: "read-only-runs-jobs", area: "auth", rule: "auth.read-only-forbidden", does: "A read-only key may submit jobs",
    request: (req, at) => {
      const full = keyFor(at, "full");
      return (at.op === "jobRun" || at.op === "jobRunsync") && at.keys.some((k) => k.key === at.key && k.access === "read-only") && full ? withKey(req, full) : req;
    } },
  { name: "jobs-leak-across-accounts", area: "auth", rule: "auth.account-isolation", does: "status finds a job of another account",
    around: (req, at, next) => {
      const out = next(req);
      if (at.op !== "jobStatus" || out.kind !== "response" || out.response.status !== 404) return out;
      for (const k of at.keys) {
        if (k.account === at.account || k.access !== "full") continue;
        const other = next(withKey(req, k.key));
        if (other.kind === "response" && other.response.status === 200) return other;
      }
      return out;
    } },

  // Rate limits.
  { name: "ratelimit-only-on-429", area: "ratelimit", rule: "ratelimit.headers-present", does: "RateLimit headers are sent on 429s only",
    response: (res) => (res.status < 300 ? setHeader(setHeader(res, "ratelimit", undefined), "ratelimit-policy", undefined) : res) },
  { name: "ratelimit-without-reset", area: "ratelimit", rule: "ratelimit.headers-well-formed", does: "RateLimit leaves out `t`",
    response: (res) => (res.headers.ratelimit ? setHeader(res, "ratelimit", res.headers.ratelimit.replace(/;t=\d+/g, "")) : res) },
  { name: "ratelimit-hour-3599", area: "ratelimit", rule: "ratelimit.policy-windows", does: "The hour window is 3599 seconds long",
    response: (res) => (res.headers["ratelimit-policy"] ? setHeader(res, "ratelimit-policy", res.headers["ratelimit-policy"].replace(/w=3600\b/, "w=3599")) : res) },
  { name: "ratelimit-never-moves", area: "ratelimit", rule: "ratelimit.remaining-decreases", does: "RateLimit repeats the first value it sent to each key",
    response: (res, _req, at) => {
      if (!res.headers.ratelimit || at.key === undefined) return res;
      const first = at.memory.get(at.key) as string | undefined;
      if (first === undefined) { at.memory.set(at.key, res.headers.ratelimit); return res; }
      return setHeader(res, "ratelimit", first);
    } },
  { name: "ratelimit-not-enforced", area: "ratelimit", rule: "ratelimit.429-when-spent", does: "A request over a spent window is served anyway (as an unlimited account)",
    around: (req, at, next) => {
      const out = next(req);
      const exempt = at.keys.find((k) => k.access === "exempt")?.key;
      return out.kind === "response" && out.response.status === 429 && exempt ? next(withKey(req, exempt)) : out;
    } },
  { name: "ratelimit-single-quotes", area: "ratelimit", rule: "ratelimit.structured-fields", does: "RateLimit and RateLimit-Policy quote the window names with single quotes",
    response: (res) => {
      let out = res;
      for (const h of ["ratelimit", "ratelimit-policy"]) if (out.headers[h]) out = setHeader(out, h, out.headers[h]!.replace(/"/g, "'"));
      return out;
    } },
  { name: "ratelimit-shared-by-accounts", area: "ratelimit", rule: "ratelimit.per-user", does: "RateLimit's remaining counts also fall with every other account's requests",
    response: (res, _req, at) => {
      if (!res.headers.ratelimit || at.account === undefined) return res;
      const all = ((at.memory.get("all") as number | undefined) ?? 0) + 1;
      const mine = ((at.memory.get(at.account) as number | undefined) ?? 0) + 1;
      at.memory.set("all", all);
      at.memory.set(at.account, mine);
      return setHeader(res, "ratelimit", res.headers.ratelimit.replace(/;r=(\d+)/g, (_m, r: string) => `;r=${Math.max(0, Number(r) - (all - mine))}`));
    } },
  { name: "no-retry-after", area: "ratelimit", rule: "ratelimit.retry-after", does: "A 429 carries no Retry-After",
    response: (res) => (res.status === 429 ? setHeader(res, "retry-after", undefined) : res) },
  { name: "429-vague-detail", area: "ratelimit", rule: "ratelimit.429-detail-names-window", does: "A 429's detail does not name the window",
    response: (res) => (res.status === 429 && isObject(res.body) && "detail" in res.body ? editAnswer(res, (b) => { b.detail = "slow down"; }) : res) },

  // GraphQL.
  { name: "graphql-without-key", area: "graphql", rule: "graphql.auth-api-key", does: "GraphQL without a key serves the first account",
    request: (req, at) => (GRAPHQL_OPS.has(at.op ?? "") && at.key === undefined ? withQuery(req, (q) => { q.api_key = at.keys.find((k) => k.access === "full")!.key; }) : req) },
  { name: "graphql-refuses-bearer", area: "graphql", rule: "graphql.auth-bearer", does: "GraphQL ignores `Authorization: Bearer`",
    request: (req, at) => (GRAPHQL_OPS.has(at.op ?? "") && req.query.api_key === undefined && req.headers.authorization ? { ...req, headers: { ...req.headers, authorization: undefined } } : req) },
  { name: "graphql-result-envelope", area: "graphql", rule: "graphql.envelope", does: "GraphQL answers `{result}` instead of `{data}`",
    response: (res, _req, at) => (GRAPHQL_OPS.has(at.op ?? "") && isObject(res.body) && "data" in res.body && !("errors" in res.body) ? answer(res, { body: { result: res.body.data } }) : res) },
  { name: "graphql-errors-without-code", area: "graphql", rule: "graphql.errors-envelope", does: "GraphQL errors carry no `extensions.code`",
    response: (res, _req, at) => (GRAPHQL_OPS.has(at.op ?? "") && isObject(res.body) && Array.isArray(res.body.errors)
      ? editAnswer(res, (b) => { for (const e of b.errors as unknown[]) if (isObject(e)) delete e.extensions; }) : res) },
  { name: "deploy-without-host", area: "graphql", rule: "graphql.pod-find-and-deploy.fields", does: "podFindAndDeployOnDemand leaves machine.podHostId out of its answer",
    response: graphqlField("podFindAndDeployOnDemand", (p) => { if (isObject(p.machine)) delete p.machine.podHostId; }) },
  { name: "deploy-ignores-cuda", area: "graphql", rule: "graphql.allowed-cuda-versions", does: "allowedCudaVersions is ignored when placing the pod",
    request: (req, at) => {
      if (!GRAPHQL_OPS.has(at.op ?? "") || !isObject(req.body)) return req;
      const b = req.body as Json;
      const query = typeof b.query === "string" ? b.query.replace(/allowedCudaVersions\s*:\s*(\[[^\]]*\]|\$\w+)\s*,?/g, "") : b.query;
      const variables = isObject(b.variables) ? structuredClone(b.variables) : b.variables;
      if (isObject(variables)) for (const o of [variables, ...Object.values(variables).filter(isObject)]) delete (o as Json).allowedCudaVersions;
      return { ...req, body: { ...b, query, variables } };
    } },
  { name: "deploy-refuses-docker-args", area: "graphql", rule: "graphql.pod-find-and-deploy.input", does: "podFindAndDeployOnDemand refuses the `dockerArgs` input field as unknown",
    around: (req, at, next) => {
      const text = graphqlText(req);
      if (!GRAPHQL_OPS.has(at.op ?? "") || !text.includes("podFindAndDeployOnDemand") || !/dockerArgs\W*:/.test(text)) return next(req);
      const message = 'Field "dockerArgs" is not defined by type "PodFindAndDeployOnDemandInput".';
      return { kind: "response", response: { status: 400, headers: { "content-type": "application/json; charset=utf-8" }, body: { errors: [{ message, extensions: { code: "GRAPHQL_VALIDATION_FAILED" } }] } } };
    } },
  { name: "deploy-ignores-name", area: "graphql", rule: "graphql.pod-find-and-deploy.creates", does: "podFindAndDeployOnDemand names every pod it creates \"pod\", whatever `name` asks",
    request: (req, at) => {
      if (!GRAPHQL_OPS.has(at.op ?? "") || !isObject(req.body) || !graphqlText(req).includes("podFindAndDeployOnDemand")) return req;
      const b = req.body as Json;
      const query = typeof b.query === "string" ? b.query.replace(/(\bname\s*:\s*)"(?:[^"\\]|\\.)*"/g, '$1"pod"') : b.query;
      const variables = isObject(b.variables) ? structuredClone(b.variables) : b.variables;
      if (isObject(variables)) for (const o of [variables, ...Object.values(variables).filter(isObject)]) if (typeof (o as Json).name === "string") (o as Json).name = "pod";
      return { ...req, body: { ...b, query, variables } };
    } },
  { name: "resume-without-image", area: "graphql", rule: "graphql.pod-resume.fields", does: "podResume leaves imageName out of its answer",
    response: graphqlField("podResume", (p) => delete p.imageName) },
  { name: "resume-answers-exited", area: "graphql", rule: "graphql.pod-resume.running", does: "podResume answers desiredStatus EXITED",
    response: graphqlField("podResume", (p) => { if ("desiredStatus" in p) p.desiredStatus = "EXITED"; }) },
  { name: "stop-without-id", area: "graphql", rule: "graphql.pod-stop.fields", does: "podStop answers without the pod's id",
    response: graphqlField("podStop", (p) => delete p.id) },
  { name: "stop-answers-running", area: "graphql", rule: "graphql.pod-stop.exited", does: "podStop answers desiredStatus RUNNING",
    response: graphqlField("podStop", (p) => { if ("desiredStatus" in p) p.desiredStatus = "RUNNING"; }) },
  { name: "myself-pods-without-runtime", area: "graphql", rule: "graphql.myself-pods.fields", does: "myself { pods } leaves out runtime",
    response: (res, _req, at) => editGraphql(res, at, "myself", (o) => { const m = o.myself; if (isObject(m) && Array.isArray(m.pods)) for (const p of m.pods) if (isObject(p)) delete p.runtime; }) },
  { name: "pod-query-without-name", area: "graphql", rule: "graphql.pod.fields", does: "pod(input) leaves out name",
    response: graphqlField("pod", (p) => delete p.name) },
  { name: "gpu-types-without-display-name", area: "graphql", rule: "graphql.gpu-types.fields", does: "gpuTypes leaves out displayName",
    response: graphqlField("gpuTypes", (g) => delete g.displayName) },
  { name: "lowest-price-without-counts", area: "graphql", rule: "graphql.lowest-price.fields", does: "lowestPrice leaves out availableGpuCounts",
    response: (res, _req, at) => editGraphql(res, at, "lowestPrice", (o) => { if (isObject(o.lowestPrice)) delete o.lowestPrice.availableGpuCounts; }) },
  { name: "pod-machine-id-number", area: "graphql", rule: "graphql.pod.types", does: "A GraphQL pod's machineId is a number",
    response: (res, _req, at) => editGraphql(res, at, "machineId", (p) => { if (typeof p.machineId === "string") p.machineId = [...p.machineId].reduce((n, c) => (n * 31 + c.charCodeAt(0)) % 1_000_000, 0); }),
    legalUnderLenient: "the GraphQL table names `machineId` among the selectable fields without a type (the sentence types no pod field but `env`)" },
  { name: "graphql-drops-last-status-change", area: "graphql", rule: "graphql.client-fields", does: "GraphQL pods leave out lastStatusChange, which the official clients select",
    response: (res, _req, at) => editGraphql(res, at, "lastStatusChange", (p) => delete p.lastStatusChange) },
  { name: "env-colon-pairs", area: "graphql", rule: "graphql.env-key-value", does: "A GraphQL pod's env is written `KEY:value`",
    response: (res, _req, at) => editGraphql(res, at, "env", (p) => { if (Array.isArray(p.env)) p.env = p.env.map((e) => (typeof e === "string" ? e.replace("=", ":") : e)); }) },
  { name: "uptime-string", area: "graphql", rule: "graphql.runtime.types", does: "runtime.uptimeInSeconds is a string",
    response: (res, _req, at) => editGraphql(res, at, "uptimeInSeconds", (r) => { if (typeof r.uptimeInSeconds === "number") r.uptimeInSeconds = String(r.uptimeInSeconds); }),
    legalUnderLenient: "\"`runtime`: `uptimeInSeconds`; ...\": the sentence names the field without a type" },
  { name: "gpu-memory-string", area: "graphql", rule: "graphql.gpu-type.types", does: "A GPU type's memoryInGb is a string",
    response: graphqlField("gpuTypes", (g) => { if (typeof g.memoryInGb === "number") g.memoryInGb = `${g.memoryInGb} GB`; }),
    legalUnderLenient: "\"GPU type: `id`, `displayName`, `memoryInGb`, `secureCloud` (boolean), ...\": the sentence types secureCloud, communityCloud and lowestPrice's members, and names memoryInGb without a type" },
  { name: "stock-status-out", area: "graphql", rule: "graphql.stock-status-enum", does: "stockStatus None is written Out",
    response: (res, _req, at) => editGraphql(res, at, "stockStatus", (o) => { if (o.stockStatus === "None" || o.stockStatus === "Low") o.stockStatus = "Out"; }) },

  // Versioning.
  { name: "health-under-v1", area: "jobs.operations", rule: "versioning.v2-prefix", does: "A job endpoint's health is served under /v1 only: /v2/<endpoint_id>/health answers 404",
    response: (res, _req, at) => (at.op === "jobHealth" ? answer(res, { status: 404, headers: { ...res.headers, "content-type": "application/problem+json" }, body: problemBody(404, "no such route") }) : res) },

  // The catalog.
  { name: "gpus-bare-array", area: "catalog", rule: "catalog.gpus.shape", does: "GET /v2/catalog/gpus answers a bare array",
    response: (res, _req, at) => (at.op === "listGpuTypes" && res.status === 200 && isObject(res.body) ? answer(res, { body: res.body.gpus }) : res) },
  { name: "cpus-bare-array", area: "catalog", rule: "catalog.cpus.shape", does: "GET /v2/catalog/cpus answers a bare array",
    response: (res, _req, at) => (at.op === "listCpuFlavors" && res.status === 200 && isObject(res.body) ? answer(res, { body: res.body.cpus }) : res) },
  { name: "datacenters-bare-array", area: "catalog", rule: "catalog.datacenters.shape", does: "GET /v2/catalog/datacenters answers a bare array",
    response: (res, _req, at) => (at.op === "listDataCenters" && res.status === 200 && isObject(res.body) ? answer(res, { body: res.body.dataCenters }) : res) },
  { name: "datacenters-without-global-network", area: "catalog", rule: "catalog.global-network-field", does: "Data centers leave out `globalNetwork`",
    response: (res, _req, at) => (at.op === "listDataCenters" && res.status === 200 ? editAnswer(res, (b) => { if (Array.isArray(b.dataCenters)) for (const d of b.dataCenters) if (isObject(d)) delete d.globalNetwork; }) : res) },
];
