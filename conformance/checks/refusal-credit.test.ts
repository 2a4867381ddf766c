/**
 * Issue #31, item 4: a refusal credits a rule only when the same body without the rule's breaking
 * part is accepted. A target that refuses every body of an operation for a reason of its own (a
 * header it wants) is not passed on the rules whose bad bodies it refused: the set-up is reported
 * as not reached. The same bad bodies on the plain emulator, whose controls are taken, pass.
 */
import t from "tap";
import "./index.ts";
import type { Profile } from "../options.ts";
import { runOnTestTarget, type Breakage } from "../test-support/pods/create-test-target.ts";
import { SETUP_NOT_REACHED } from "../../reports/conformance-report.ts";

/** Refuses every POST whose path ends in one of `suffixes`, whatever its body: an unrelated reason. */
const refusesEvery =
  (...suffixes: string[]): Breakage =>
  (request, next) =>
    request.method === "POST" && suffixes.some((s) => request.path.endsWith(s))
      ? { kind: "response", response: { status: 400, headers: { "content-type": "application/json" }, body: { error: "this service wants an X-Request-Id header" } } }
      : next(request);

const run = runOnTestTarget;

type Report = Awaited<ReturnType<typeof run>>;
const statusOf = (report: Report, id: string) => report.rules.find((r) => r.id === id);

/** Refuses every request to a path ending in `suffix` that carries the query parameter `name`, whatever its value. */
const refusesQuery =
  (suffix: RegExp, name: string): Breakage =>
  (request, next) =>
    suffix.test(request.path) && request.query[name] !== undefined
      ? { kind: "response", response: { status: 400, headers: { "content-type": "application/json" }, body: { error: "this service wants an X-Request-Id header" } } }
      : next(request);

const QUERY_RULES = ["jobs.runsync.wait-range", "jobs.status.ttl-query"];

/** Under lenient, any 4xx would pass these; the rules of choices.md are judged under strict alone. */
const JOB_RULES: Record<Profile, string[]> = { lenient: ["jobs.submit.input-object"], strict: ["jobs.submit.unknown-key", "jobs.submit.input-object", "jobs.submit.policy-ttl"] };
/** The action body is choices.md's (the spec shows no payload): all four are judged under strict alone. */
const ACTION_RULES: Record<Profile, string[]> = {
  lenient: [],
  strict: ["pods.action.unknown-property", "pods.action.action-required", "pods.action.action-enum", "pods.action.field-type"],
};

for (const profile of ["lenient", "strict"] as const) {
  t.test(`${profile}: run and runsync refused whatever the body: the job body rules are not passed, their set-up not reached`, async (t) => {
    const report = await run(refusesEvery("/run", "/runsync"), JOB_RULES[profile], profile);
    for (const id of JOB_RULES[profile]) {
      const rule = statusOf(report, id);
      t.equal(rule?.status, "skip", `${id}: ${rule?.reason ?? rule?.failures[0]?.evidence.expected}`);
      t.match(rule?.reason, new RegExp(`^${SETUP_NOT_REACHED}: no refusal could be credited.*refused too \\(HTTP 400\\)`), id);
    }
  });

  if (ACTION_RULES[profile].length > 0) t.test(`${profile}: pod actions refused whatever the body: the action body rules are not passed, their set-up not reached`, async (t) => {
    const report = await run(refusesEvery("/action"), ACTION_RULES[profile], profile);
    for (const id of ACTION_RULES[profile]) {
      const rule = statusOf(report, id);
      t.equal(rule?.status, "skip", `${id}: ${rule?.reason ?? rule?.failures[0]?.evidence.expected}`);
      t.match(rule?.reason, new RegExp(`^${SETUP_NOT_REACHED}: no refusal could be credited`), id);
    }
  });

  t.test(`${profile}: runsync refused with any wait, status with any ttl: the query rules are not passed, their set-up not reached`, async (t) => {
    const both: Breakage = (request, next) => refusesQuery(/\/runsync$/, "wait")(request, (r) => refusesQuery(/\/status\/[^/]+$/, "ttl")(r, next));
    const report = await run(both, QUERY_RULES, profile);
    for (const id of QUERY_RULES) {
      const rule = statusOf(report, id);
      t.equal(rule?.status, "skip", `${id}: ${rule?.reason ?? rule?.failures[0]?.evidence.expected}`);
      t.match(rule?.reason, new RegExp(`^${SETUP_NOT_REACHED}: no refusal could be credited.*refused too \\(HTTP 400\\)`), id);
    }
  });

  t.test(`${profile}: the emulator takes the controls: the same rules pass`, async (t) => {
    const ids = [...JOB_RULES[profile], ...ACTION_RULES[profile], ...QUERY_RULES];
    const report = await run(undefined, ids, profile);
    for (const id of ids) t.equal(statusOf(report, id)?.status, "pass", `${id}: ${statusOf(report, id)?.reason ?? ""}`);
  });
}
