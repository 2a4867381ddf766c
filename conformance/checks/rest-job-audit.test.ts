/**
 * Issue #31, item 4, beyond GraphQL: the REST and job rules assert what their sentences state.
 * - errors.same-body judges, under the lenient profile too, the error answers whose status the spec
 *   leaves open (an unknown pod's read, an action the pod's status refuses): "Any other error uses
 *   the same body". Only where the route is the target's: a read path it does not serve, or an
 *   action route it lacks, is no verdict.
 * - errors.validation-list: failures "may be listed", so a 422 without `errors` is judged under
 *   strict alone, and a lenient run where no 422 listed any is skipped rather than passed.
 * - auth.bare-key-jobs and the pod action body rules the spec does not state (the key alone, the
 *   action's payload) are judged under strict alone.
 */
import t from "tap";
import "./index.ts";
import { editResponse, runOnTestTarget as run, type Breakage } from "../test-support/pods/create-test-target.ts";
import type { ApiRequest, ApiResponse } from "../../sim/api/types.ts";

type Report = Awaited<ReturnType<typeof run>>;
const ruleOf = (report: Report, id: string) => report.rules.find((r) => r.id === id);
const isProblem = (r: ApiResponse) => (r.headers["content-type"] ?? "").startsWith("application/problem+json");
const podRead = (r: ApiRequest) => r.method === "GET" && /^\/v2\/pods\/[^/]+$/.test(r.path);
const podAction = (r: ApiRequest) => r.method === "POST" && /^\/v2\/pods\/[^/]+\/action$/.test(r.path);
const plain404: ApiResponse = { status: 404, headers: { "content-type": "text/plain" }, body: "Cannot find that route" };

const SAME_BODY = "errors.same-body";

/** sim/defects' not-found-plain-json: a REST 404 sent as application/json. */
const notFoundPlainJson = editResponse((req, res) =>
  res.status === 404 && isProblem(res) && req.path.startsWith("/v2/pods") ? { ...res, headers: { ...res.headers, "content-type": "application/json" } } : res,
);
/** sim/defects' conflict-error-field: a 409 answers `{error}`. */
const conflictErrorField = editResponse((_req, res) =>
  res.status === 409 && isProblem(res) && typeof res.body === "object" && res.body !== null
    ? { status: 409, headers: { "content-type": "application/json" }, body: { error: (res.body as { detail?: unknown }).detail } }
    : res,
);

t.test("lenient: a REST 404 for an unknown pod sent as application/json fails errors.same-body", async (t) => {
  const rule = ruleOf(await run(notFoundPlainJson, [SAME_BODY]), SAME_BODY);
  t.equal(rule?.status, "fail", rule?.reason ?? "");
  t.match(rule?.failures[0]?.evidence.expected, /a read of a pod that does not exist answered HTTP 404.*application\/problem\+json/);
});

t.test("lenient: a 409 answering {error} instead of ErrorResponse fails errors.same-body", async (t) => {
  const rule = ruleOf(await run(conflictErrorField, [SAME_BODY]), SAME_BODY);
  t.equal(rule?.status, "fail", rule?.reason ?? "");
  t.match(rule?.failures[0]?.evidence.expected, /start of a pod just created.*answered HTTP 409.*ErrorResponse/);
});

t.test("lenient: a target without getPod or the action route at those paths (a framework's plain 404) is not failed", async (t) => {
  const noRoutes: Breakage = (request, next) => (podRead(request) || podAction(request) ? { kind: "response", response: plain404 } : next(request));
  const rule = ruleOf(await run(noRoutes, [SAME_BODY]), SAME_BODY);
  t.equal(rule?.status, "pass", `${rule?.reason ?? ""} ${rule?.failures[0]?.evidence.expected ?? ""}`);
});

t.test("the emulator keeps errors.same-body under both profiles", async (t) => {
  for (const profile of ["lenient", "strict"] as const) {
    const rule = ruleOf(await run(undefined, [SAME_BODY], profile), SAME_BODY);
    t.equal(rule?.status, "pass", `${profile}: ${rule?.failures[0]?.evidence.expected ?? ""}`);
  }
});

const LIST = "errors.validation-list";
const withoutList = editResponse((_req, res) => {
  if (res.status !== 422 || typeof res.body !== "object" || res.body === null) return res;
  const { errors: _e, ...body } = res.body as Record<string, unknown>;
  return { ...res, body };
});

t.test("a 422 without `errors`: not judged under lenient (failures 'may be listed'), failed under strict", async (t) => {
  const lenient = ruleOf(await run(withoutList, [LIST]), LIST);
  t.equal(lenient?.status, "skip", "no vacuous pass");
  t.match(lenient?.reason, /no 422 listed individual failures.*strict requires the list/);
  const strict = ruleOf(await run(withoutList, [LIST], "strict"), LIST);
  t.equal(strict?.status, "fail");
  t.match(strict?.failures[0]?.evidence.expected, /listing the individual failures/);
});

t.test("a 422 whose `errors` is not an array of strings fails under lenient (ErrorResponse's table types it)", async (t) => {
  const asText = editResponse((_req, res) =>
    res.status === 422 && typeof res.body === "object" && res.body !== null ? { ...res, body: { ...(res.body as object), errors: "disk: must be >= 1" } } : res,
  );
  const rule = ruleOf(await run(asText, [LIST]), LIST);
  t.equal(rule?.status, "fail");
  t.match(rule?.failures[0]?.evidence.expected, /array of strings/);
  const plain = ruleOf(await run(undefined, [LIST]), LIST);
  t.equal(plain?.status, "pass", "the emulator's lists are judged and kept");
});

const BARE = "auth.bare-key-jobs";
/** Job endpoints that take only `Bearer <key>`: the key alone is refused with 401. */
const bearerOnlyJobs: Breakage = (request, next) => {
  const auth = request.headers["authorization"];
  const jobs = !request.path.startsWith("/v2/pods") && !request.path.startsWith("/v2/catalog") && request.path.startsWith("/v2/");
  return jobs && auth !== undefined && !/^bearer /i.test(auth)
    ? { kind: "response", response: { status: 401, headers: { "content-type": "application/json" }, body: { error: "Bearer token required" } } }
    : next(request);
};

t.test("job endpoints taking only the Bearer form: auth.bare-key-jobs is strict only", async (t) => {
  const lenient = ruleOf(await run(bearerOnlyJobs, [BARE]), BARE);
  t.equal(lenient?.status, "skip");
  t.match(lenient?.reason, /does not state that the job endpoints accept the key alone/);
  const strict = ruleOf(await run(bearerOnlyJobs, [BARE], "strict"), BARE);
  t.equal(strict?.status, "fail", "strict asks for the reference's form");
});

const ACTIONS = ["pods.action.action-enum", "pods.action.field-type"];
/** Takes `["stop"]` and `{"action": "START"}` alike: a payload convention of its own. */
const liberalActions: Breakage = (request, next) => {
  if (!podAction(request)) return next(request);
  const raw = Array.isArray(request.body) ? { action: request.body[0] } : request.body;
  const action = typeof raw === "object" && raw !== null ? (raw as { action?: unknown }).action : undefined;
  const named = typeof action === "string" ? action.toLowerCase() : action;
  return next({ ...request, body: { action: ["start", "stop", "restart", "terminate"].includes(named as string) ? named : "stop" } });
};

t.test("the pod actions' payload is not shown: a target reading it its own way is not failed under lenient; strict asks for choices.md's", async (t) => {
  const lenient = await run(liberalActions, ACTIONS);
  for (const id of ACTIONS) {
    t.equal(ruleOf(lenient, id)?.status, "skip", id);
    t.match(ruleOf(lenient, id)?.reason, /does not state .*payload/, id);
  }
  const strict = await run(liberalActions, ACTIONS, "strict");
  for (const id of ACTIONS) t.equal(ruleOf(strict, id)?.status, "fail", `${id} under strict`);
});
