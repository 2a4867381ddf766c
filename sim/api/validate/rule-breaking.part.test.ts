/**
 * For EVERY request rule of the catalog that these validators enforce: a generated valid
 * request passes, and the same request broken by that rule's breaker is refused, naming that
 * rule among its violations and answering that rule's status. Request rules enforced elsewhere
 * (authentication, rate limits, routing, the HTTP layer) are listed with the reason.
 */
import fc from "fast-check";
import t from "tap";
import { ruleById, rules, type RuleId } from "../rules/index.ts";
import {
  createPodBodyArb, createPodBreakers, jobSubmitBodyArb, jobSubmitBreakers, podActionBodyArb, podActionBreakers,
  ttlQueryArb, ttlQueryBreakers, updatePodBreakers, updatePodCaseArb, waitQueryArb, waitQueryBreakers,
} from "./arbitraries.ts";
import { catalogContext, sampleCatalog } from "./sample-catalog.ts";
import { validateCreatePod } from "./validate-create-pod.ts";
import { validateJobSubmit } from "./validate-job-submit.ts";
import { validatePodAction } from "./validate-pod-action.ts";
import { validateTtlQuery } from "./validate-ttl-query.ts";
import { validateUpdatePod } from "./validate-update-pod.ts";
import { validateWaitQuery } from "./validate-wait-query.ts";
import type { Validated } from "./violation.ts";

const NUM_RUNS = 60;
const ctx = catalogContext(sampleCatalog);
/** A small payload limit keeps the over-limit bodies small. */
const maxBytes = 4096;

const ENFORCED_ELSEWHERE: Readonly<Record<string, string>> = {
  "errors.malformed-request": "the HTTP layer: the body is not JSON, so no validator sees it",
  "auth.bearer-header": "authentication, before routing",
  "auth.bare-key-jobs": "authentication, before routing",
  "auth.missing-key": "authentication, before routing",
  "auth.malformed-key": "authentication, before routing",
  "auth.invalid-key": "authentication, before routing",
  "auth.expired-key": "authentication, before routing",
  "auth.read-only-forbidden": "authorization: needs the key's permissions",
  "auth.account-isolation": "authorization: needs the resource's owner",
  "pods.not-found": "the pod store",
  "jobs.not-found": "the job store",
  "jobs.empty-body": "the HTTP layer: an empty body is read as {} before validation",
  "jobs.reserved-endpoint-ids": "routing",
  "jobs.public.same-paths": "routing",
  "graphql.auth-api-key": "GraphQL authentication",
  "graphql.auth-bearer": "GraphQL authentication",
  "graphql.pod-find-and-deploy.input": "the GraphQL resolver",
  "ratelimit.429-when-spent": "the rate limiter",
  "versioning.v2-prefix": "routing",
  "client.retry-after": "a client's behaviour across requests: judged by cpsim proxy on traffic, never by a server",
  "client.poll-finished-job": "a client's behaviour across requests: judged by cpsim proxy on traffic, never by a server",
};

function assertBroken(ruleId: RuleId, result: Validated<unknown>, what: unknown): void {
  if (result.ok) throw new Error(`${ruleId}: ${JSON.stringify(what).slice(0, 300)} was accepted`);
  const ids = result.violations.map((v) => v.ruleId);
  if (!ids.includes(ruleId)) throw new Error(`${ruleId}: ${JSON.stringify(what).slice(0, 300)} was refused for ${ids.join(", ")} only`);
  const status = ruleById(ruleId).status;
  if (result.status !== status) {
    throw new Error(`${ruleId}: expected status ${status}, got ${result.status} (${ids.join(", ")}) for ${JSON.stringify(what).slice(0, 300)}`);
  }
  for (const v of result.violations) if (v.message.length < 20) throw new Error(`${v.ruleId}: message too short: ${v.message}`);
}

function assertValid(ruleId: string, result: Validated<unknown>, what: unknown): void {
  if (!result.ok) throw new Error(`${ruleId}: valid ${JSON.stringify(what).slice(0, 300)} refused: ${JSON.stringify(result.violations)}`);
}

type Family = () => void;

function familyOf(ruleId: RuleId): Family | undefined {
  if (createPodBreakers[ruleId]) {
    return () =>
      fc.assert(
        fc.property(createPodBodyArb(), (body) => {
          assertValid(ruleId, validateCreatePod(body, ctx), body);
          const broken = createPodBreakers[ruleId]!(body, sampleCatalog);
          if (broken === undefined) throw new Error(`${ruleId}: the sample catalog cannot break it`);
          assertBroken(ruleId, validateCreatePod(broken, ctx), broken);
        }),
        { numRuns: NUM_RUNS },
      );
  }
  if (updatePodBreakers[ruleId]) {
    return () =>
      fc.assert(
        fc.property(updatePodCaseArb(), (c) => {
          assertValid(ruleId, validateUpdatePod(c.body, c.pod), c);
          const broken = updatePodBreakers[ruleId]!(c);
          assertBroken(ruleId, validateUpdatePod(broken.body, broken.pod), broken);
        }),
        { numRuns: NUM_RUNS },
      );
  }
  if (podActionBreakers[ruleId]) {
    return () =>
      fc.assert(
        fc.property(podActionBodyArb(), (body) => {
          assertValid(ruleId, validatePodAction(body), body);
          const broken = podActionBreakers[ruleId]!(body);
          assertBroken(ruleId, validatePodAction(broken), broken);
        }),
        { numRuns: NUM_RUNS },
      );
  }
  if (jobSubmitBreakers[ruleId]) {
    const kind = ruleId === "jobs.payload.runsync-limit" ? "runsync" : "run";
    return () =>
      fc.assert(
        fc.property(jobSubmitBodyArb(), (body) => {
          // The valid body must fit under the small limit the test uses.
          fc.pre(JSON.stringify(body).length < maxBytes / 2);
          assertValid(ruleId, validateJobSubmit(body, { kind, maxBytes }), body);
          const broken = jobSubmitBreakers[ruleId]!(body, { maxBytes });
          assertBroken(ruleId, validateJobSubmit(broken, { kind, maxBytes }), broken);
        }),
        { numRuns: NUM_RUNS },
      );
  }
  if (waitQueryBreakers[ruleId]) {
    return () =>
      fc.assert(
        fc.property(waitQueryArb(), (raw) => {
          assertValid(ruleId, validateWaitQuery(raw), raw);
          const broken = waitQueryBreakers[ruleId]!(raw);
          assertBroken(ruleId, validateWaitQuery(broken), broken);
        }),
        { numRuns: NUM_RUNS },
      );
  }
  if (ttlQueryBreakers[ruleId]) {
    return () =>
      fc.assert(
        fc.property(ttlQueryArb(), (raw) => {
          assertValid(ruleId, validateTtlQuery(raw), raw);
          const broken = ttlQueryBreakers[ruleId]!(raw);
          assertBroken(ruleId, validateTtlQuery(broken), broken);
        }),
        { numRuns: NUM_RUNS },
      );
  }
  return undefined;
}

t.test("every request rule is broken, refused by its id and answered with its status", async (t) => {
  for (const rule of rules.filter((r) => r.kind === "request")) {
    const family = familyOf(rule.id);
    if (family === undefined) {
      t.ok(rule.id in ENFORCED_ELSEWHERE, `${rule.id} has a breaker or is enforced elsewhere`);
      continue;
    }
    t.doesNotThrow(family, rule.id);
  }
});

t.test("breakers exist only for request rules of the catalog", async (t) => {
  const all = [createPodBreakers, updatePodBreakers, podActionBreakers, jobSubmitBreakers, waitQueryBreakers, ttlQueryBreakers];
  for (const table of all) {
    for (const id of Object.keys(table)) t.equal(ruleById(id)?.kind, "request", `${id} is a request rule`);
  }
  for (const id of Object.keys(ENFORCED_ELSEWHERE)) t.equal(ruleById(id)?.kind, "request", `${id} is a request rule`);
});

t.test("generated valid bodies are accepted (more runs)", async (t) => {
  t.doesNotThrow(() =>
    fc.assert(
      fc.property(createPodBodyArb(), (body) => assertValid("createPod", validateCreatePod(body, ctx), body)),
      { numRuns: 500 },
    ),
  );
  t.doesNotThrow(() =>
    fc.assert(fc.property(updatePodCaseArb(), (c) => assertValid("updatePod", validateUpdatePod(c.body, c.pod), c)), { numRuns: 500 }),
  );
  t.doesNotThrow(() =>
    fc.assert(fc.property(jobSubmitBodyArb(), (b) => assertValid("run", validateJobSubmit(b, { kind: "run" }), b)), { numRuns: 300 }),
  );
});
