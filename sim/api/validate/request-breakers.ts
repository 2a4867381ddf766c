/** Breakers of the pod action body, the run/runsync body and the wait and ttl queries. */
import type { RuleId } from "../rules/index.ts";
import type { JobSubmitRequest, PodAction } from "../schemas/index.ts";
import { copy, variant } from "./breaker-helpers.ts";

export type PodActionBreaker = (body: { readonly action: PodAction }) => unknown;
export type JobSubmitBreaker = (body: JobSubmitRequest, limits: { readonly maxBytes: number }) => unknown;
export type QueryBreaker = (raw: string | undefined) => string;

export const podActionBreakers: Readonly<Partial<Record<RuleId, PodActionBreaker>>> = {
  "pods.action.unknown-property": (b) => ({ ...b, force: true }),
  "pods.action.action-required": () => ({}),
  "pods.action.action-enum": (b) => ({ action: ["pause", "START", 1][variant(b, 3)] }),
  "pods.action.field-type": (b) => [b.action],
};

export function breakPodActionRule(ruleId: RuleId, body: { readonly action: PodAction }): unknown {
  const breaker = podActionBreakers[ruleId];
  if (breaker === undefined) throw new RangeError(`No pod action breaker for rule "${ruleId}".`);
  return breaker(body);
}

export const jobSubmitBreakers: Readonly<Partial<Record<RuleId, JobSubmitBreaker>>> = {
  "jobs.submit.input-object": (b) => {
    const d = copy(b);
    if (variant(b, 2) === 0) delete d.input;
    else d.input = "a prompt";
    return d;
  },
  "jobs.submit.unknown-key": (b) => ({ ...copy(b), mode: "sync" }),
  "jobs.submit.field-type": (b) => ({ ...copy(b), policy: { ...(b.policy ?? {}), lowPriority: "yes" } }),
  "jobs.submit.webhook-url": (b) => ({ ...copy(b), webhook: ["hooks.example.com/done", "ftp://example.com/x", 42][variant(b, 3)] }),
  "jobs.submit.policy-execution-timeout": (b) => ({ ...copy(b), policy: { ...(b.policy ?? {}), executionTimeout: [1000, 700_000_000][variant(b, 2)] } }),
  "jobs.submit.policy-ttl": (b) => ({ ...copy(b), policy: { ...(b.policy ?? {}), ttl: [5000, 700_000_000][variant(b, 2)] } }),
  "jobs.payload.run-limit": (b, { maxBytes }) => ({ ...copy(b), input: { ...b.input, padding: "a".repeat(maxBytes) } }),
  "jobs.payload.runsync-limit": (b, { maxBytes }) => ({ ...copy(b), input: { ...b.input, padding: "a".repeat(maxBytes) } }),
};

export function breakJobSubmitRule(ruleId: RuleId, body: JobSubmitRequest, limits: { readonly maxBytes: number }): unknown {
  const breaker = jobSubmitBreakers[ruleId];
  if (breaker === undefined) throw new RangeError(`No run/runsync breaker for rule "${ruleId}".`);
  return breaker(body, limits);
}

export const waitQueryBreakers: Readonly<Partial<Record<RuleId, QueryBreaker>>> = {
  "jobs.runsync.wait-range": (raw) => ["999", "300001", "9e4", "90s", "-1000", "1500.5"][variant(raw, 6)] as string,
};
export const ttlQueryBreakers: Readonly<Partial<Record<RuleId, QueryBreaker>>> = {
  "jobs.status.ttl-query": (raw) => ["0", "-6000", "6e3", "six", "604800001"][variant(raw, 5)] as string,
};

export function breakWaitQueryRule(ruleId: RuleId, raw: string | undefined): string {
  const breaker = waitQueryBreakers[ruleId];
  if (breaker === undefined) throw new RangeError(`No wait query breaker for rule "${ruleId}".`);
  return breaker(raw);
}

export function breakTtlQueryRule(ruleId: RuleId, raw: string | undefined): string {
  const breaker = ttlQueryBreakers[ruleId];
  if (breaker === undefined) throw new RangeError(`No ttl query breaker for rule "${ruleId}".`);
  return breaker(raw);
}
