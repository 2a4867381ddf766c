/**
 * A scenario made concrete for one target, or the reason it cannot be: its pod bodies built from
 * the target's catalog, its job requests only where the job endpoint exists, and the rate-limit
 * scenario only where the key's quota is small enough to be spent within the scenario's bounds.
 * A scenario that cannot be built is skipped with the reason, never run to fail.
 */
import { noBodyReason, safestBody } from "../conformance/index.ts";
import { describeQuota, quotaBefore429 } from "./quota.ts";
import { needsCatalog, usesEndpoint, type TargetRead } from "./read-target.ts";
import type { RequestSpec, Scenario } from "./scenario.ts";
import type { LoadTarget } from "./target.ts";

export type Adapted = { readonly scenario: Scenario; readonly notes: readonly string[] } | { readonly skip: string };

/** The run's bounds for one scenario, as the command line or the scenario sets them. */
export interface Bounds {
  readonly durationS: number;
  readonly maxRequests: number;
  readonly rate?: number;
}

export function boundsOf(s: Scenario, o: { durationS?: number; maxRequests?: number; rate?: number }): Bounds {
  return { durationS: o.durationS ?? s.defaults.durationS, maxRequests: o.maxRequests ?? s.defaults.maxRequests, rate: o.rate ?? s.defaults.rate };
}

export function adaptScenario(s: Scenario, target: LoadTarget, read: TargetRead, bounds: Bounds): Adapted {
  const notes: string[] = [];
  if (usesEndpoint(s) && read.endpointHealth !== undefined && (read.endpointHealth === 404 || read.endpointHealth === 0)) {
    const why = read.endpointHealth === 0 ? "no answer" : "404";
    return { skip: `GET ${target.serverlessUrl}/v2/${target.endpoint}/health: ${why}: the target has no job endpoint "${target.endpoint}"; give --endpoint ID (an endpoint running the conformance handler) or --serverless-url` };
  }
  let requests: RequestSpec[] = [...s.requests];
  if (needsCatalog(s)) {
    const catalog = read.catalog;
    const body = catalog ? safestBody(catalog) : undefined;
    if (!catalog || !body) return { skip: catalog ? noBodyReason(catalog) : "the target's catalog was not read" };
    requests = requests.map((r) => (r.body && "pod" in r.body ? { ...r, body: { json: { ...body, ...r.body.pod } } } : r));
    const what = body.gpu ? `${body.gpu.count ?? 1} × ${body.gpu.id}` : body.cpu ? `CPU ${body.cpu.id} × ${body.cpu.vcpuCount} vCPU` : "a pod";
    notes.push(`pod body from the target's catalog: ${what}`);
  }
  if (s.rateLimitSequence) {
    const q = read.limitedQuota;
    const before = q ? quotaBefore429(q) : undefined;
    if (before === undefined) return { skip: `the ${s.key === "limited" ? "limited key's" : "key's"} answers carry no RateLimit or RateLimit-Policy header: no quota to spend (cpsim conform judges whether they must)` };
    const sendable = Math.min(bounds.maxRequests, bounds.rate !== undefined ? Math.floor(bounds.rate * bounds.durationS) + 1 : bounds.maxRequests);
    if (before >= sendable) {
      const how = bounds.rate !== undefined ? `${bounds.rate} req/s for ${bounds.durationS} s` : `${bounds.durationS} s`;
      return {
        skip:
          `the key's quota is larger than what ${s.name} may send within its bounds: ${before} request(s) before a 429 (${describeQuota(q)}) against at most ${sendable} ` +
          `(${how}, --max-requests ${bounds.maxRequests}); give --limited-api-key a key with a smaller quota, or raise --rate and --duration`,
      };
    }
  }
  return { scenario: { ...s, requests }, notes };
}
