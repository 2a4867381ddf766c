/**
 * What a run needs to know of its target, read once before the first scenario with the code
 * `cpsim conform` reads it with (conformance/target-facts: a --target-profile file, the OpenAPI
 * document, harmless probes; conform's catalog reader): the paths it serves pods on, the GPU
 * types and CPU flavors it offers, whether the job endpoint exists, and the rate limit of each
 * key. Only what the selected scenarios use is read: a run of one job scenario sends no pod probe.
 */
import { targetCatalog, TargetError, type CheckContext, type TargetCatalog } from "../conformance/index.ts";
import { defaultTargetFacts, discoverTargetFacts, type Fact, type FactKey, type TargetFacts, type TargetProfile } from "../conformance/target-facts/index.ts";
import { readQuota, type Quota } from "./quota.ts";
import type { Scenario } from "./scenario.ts";
import type { LoadTarget } from "./target.ts";
import { jobUrl, sideClient } from "./target-calls.ts";

export interface TargetRead {
  readonly facts: TargetFacts;
  /** Read when a scenario builds a pod body. */
  readonly catalog?: TargetCatalog;
  /** GET {serverless_url}/v2/{endpoint}/health's status, when a scenario uses the job endpoint; 0: no answer. */
  readonly endpointHealth?: number;
  /** The rate limit of the run's key, and of the rate-limit scenario's key when one runs. */
  readonly quota?: Quota;
  readonly limitedQuota?: Quota;
  /** How the target was read, one line each, for the log and the report. */
  readonly notes: readonly string[];
}

export const needsCatalog = (s: Scenario): boolean => s.requests.some((r) => r.body !== undefined && "pod" in r.body);
export const needsPodFacts = (s: Scenario): boolean => needsCatalog(s) || s.terminatePods === true;
export const usesEndpoint = (s: Scenario): boolean =>
  (s.setup?.length ?? 0) > 0 || s.streamReassembly !== undefined || s.requests.some((r) => r.host === "serverless" && r.path.includes("{endpoint}"));

function profileFacts(profile: TargetProfile | undefined): TargetFacts {
  const facts = defaultTargetFacts() as unknown as Record<FactKey, Fact>;
  for (const [key, value] of Object.entries(profile ?? {})) facts[key as FactKey] = { key, value, source: "profile", evidence: "stated in the --target-profile file" } as Fact;
  return facts as unknown as TargetFacts;
}

export async function readTarget(target: LoadTarget, scenarios: readonly Scenario[], o: { profile?: TargetProfile; respectRateLimit: boolean; timeoutS: number; log?: (line: string) => void }): Promise<TargetRead> {
  const notes: string[] = [];
  const client = sideClient(target);
  const rest = target.baseUrl.replace(/\/+$/, "");
  const serverless = target.serverlessUrl.replace(/\/+$/, "");
  let facts = profileFacts(o.profile);
  let catalog: TargetCatalog | undefined;
  if (scenarios.some(needsPodFacts)) {
    facts = await discoverTargetFacts({ client, rest, serverless, ...(o.profile ? { profile: o.profile } : {}), hasApiKey: true, timeoutMs: o.timeoutS * 1000 });
    for (const key of ["podListPath", "podDeletePath", "podActionPath", "gpuCatalogPath"] as const) notes.push(`${key} ${JSON.stringify(facts[key].value)} (${facts[key].source}: ${facts[key].evidence})`);
  }
  if (scenarios.some(needsCatalog)) {
    // conform's catalog reader takes a check's context; it uses only these four members.
    const ctx = { options: {}, client, target: { rest, serverless, endpoint: target.endpoint }, facts } as unknown as CheckContext;
    catalog = await targetCatalog(ctx, { probeVolumeInCreate: false });
    notes.push(`catalog: ${catalog.notes.join("; ")}`);
  }
  let endpointHealth: number | undefined;
  if (scenarios.some(usesEndpoint)) {
    try {
      endpointHealth = (await client.request({ method: "GET", url: jobUrl(target, "health"), auth: { key: "api" } })).status;
    } catch (err) {
      if (!(err instanceof TargetError)) throw err;
      endpointHealth = 0;
    }
    notes.push(`job endpoint "${target.endpoint}": GET ${jobUrl(target, "health")} answered ${endpointHealth || "nothing"}`);
  }
  const quotaUrl = `${rest}${facts.podListPath.value}`;
  const quota = await readQuota(target, quotaUrl, target.apiKey, o.respectRateLimit);
  const limitedQuota = !scenarios.some((s) => s.key === "limited") ? undefined : target.limitedApiKey === target.apiKey ? quota : await readQuota(target, quotaUrl, target.limitedApiKey, false);
  for (const line of notes) o.log?.(`  ${line}`);
  return { facts, ...(catalog ? { catalog } : {}), ...(endpointHealth !== undefined ? { endpointHealth } : {}), quota, ...(limitedQuota ? { limitedQuota } : {}), notes };
}
