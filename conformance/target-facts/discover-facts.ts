/**
 * Reads the target's facts once per run, each from the best source there is: the
 * --target-profile file first (its owner knows best), then the target's OpenAPI document, then
 * harmless probes, and choices.md's convention when nothing else says.
 */
import type { Client, ClientResponse } from "../client.ts";
import { TargetError } from "../errors.ts";
import { OPENAPI_LOCATIONS, readOpenApi, type OpenApiFindings } from "./openapi-facts.ts";
import {
  probeGpuCatalog, probeImageModel, probeNetworkVolumes, probePodActions, probePodDelete, probePodList, probeRegistries, type ProbeFinding, type Prober,
} from "./probe-facts.ts";
import { FACT_KEYS, defaultTargetFacts, type Fact, type FactKey, type TargetFacts } from "./target-facts.ts";
import type { TargetProfile } from "./target-profile.ts";

export interface DiscoverInput {
  readonly client: Client;
  readonly rest: string;
  readonly serverless: string;
  readonly profile?: TargetProfile;
  /** Probes need the full-access key; without it only the profile and the OpenAPI document are read. */
  readonly hasApiKey: boolean;
  readonly timeoutMs: number;
  /** Told of each step, for the progress log. */
  readonly log?: (message: string) => void;
}

const PROBES: { readonly [K in FactKey]: (probe: Prober) => Promise<ProbeFinding<K> | undefined> } = {
  podActionPath: probePodActions,
  podDeletePath: probePodDelete,
  podListPath: probePodList,
  networkVolumes: (p) => probeNetworkVolumes(p),
  gpuCatalogPath: probeGpuCatalog,
  imageModel: probeImageModel,
  registriesPath: probeRegistries,
  // Only a document names the target's groups; probing every word would be guessing.
  restSegments: async () => undefined,
};

async function findOpenApi(send: (path: string) => Promise<ClientResponse | undefined>): Promise<OpenApiFindings | undefined> {
  for (const path of OPENAPI_LOCATIONS) {
    const res = await send(path);
    if (res?.status !== 200 || res.json === undefined) continue;
    const findings = readOpenApi(res.json, path);
    if (findings) return findings;
  }
  return undefined;
}

export async function discoverTargetFacts(input: DiscoverInput): Promise<TargetFacts> {
  const facts = defaultTargetFacts() as unknown as Record<FactKey, Fact>;
  const timeoutMs = Math.min(input.timeoutMs, 10_000);
  const base = (b: "rest" | "serverless") => (b === "rest" ? input.rest : input.serverless);
  const probe: Prober = async (spec) => {
    try {
      const { base: b, path, ...rest } = spec;
      return await input.client.request({ ...rest, url: `${base(b)}${path}`, timeoutMs });
    } catch (err) {
      if (err instanceof TargetError) return undefined;
      throw err;
    }
  };
  const profile = input.profile ?? {};
  const open = FACT_KEYS.filter((k) => !(k in profile));
  for (const key of FACT_KEYS) {
    if (key in profile) facts[key] = { key, value: profile[key], source: "profile", evidence: "stated in the --target-profile file" } as Fact;
  }
  if (open.length === 0) return facts as unknown as TargetFacts;

  // Documents are often public; the key goes along when there is one.
  const openapi = await findOpenApi((path) => probe({ method: "GET", base: "rest", path, ...(input.hasApiKey ? { auth: { key: "api" } } : {}) }));
  for (const key of open) {
    if (openapi && key in openapi.values) {
      facts[key] = { key, value: openapi.values[key], source: "openapi", evidence: openapi.evidence[key] ?? "the target's OpenAPI document" } as Fact;
    }
  }
  if (!input.hasApiKey) return facts as unknown as TargetFacts;
  for (const key of open) {
    if (facts[key].source === "openapi") continue;
    const found = await PROBES[key](probe);
    if (found) facts[key] = { key, value: found.value, source: "probe", evidence: found.evidence } as Fact;
    input.log?.(`${key}: ${JSON.stringify(facts[key].value)} (${facts[key].source}: ${facts[key].evidence})`);
  }
  return facts as unknown as TargetFacts;
}

/** How each fact is stated in a profile, for the list of facts discovery could not find. */
export const FACT_EXAMPLES: { readonly [K in FactKey]: string } = {
  podActionPath: '"/v2/pods/{podId}/action" (the action in a body), "/v2/pods/{podId}/{action}", "/v2/pods/{podId}:{action}", or "PATCH /v2/pods/{podId}" (a desiredStatus)',
  podDeletePath: '"/v2/pods/{podId}", or null where DELETE is not served (terminate is then the action)',
  podListPath: '"/v2/pods"',
  networkVolumes: '{"path": "/v2/volumes"}, {"dataCenterField": "volumes"}, {"ids": ["vol-1", {"id": "vol-2", "dataCenterId": "EU-RO-1"}]}, or null',
  gpuCatalogPath: '"/v2/catalog/gpus", or null',
  imageModel: '"flux-1-schnell", or null',
  registriesPath: '"/v2/containerregistryauth", or null',
  restSegments: '["pods", "catalog", ...]',
};

export interface MissingFact {
  readonly key: FactKey;
  /** Why it counts as not found: what was tried. */
  readonly why: string;
  /** How to state it: FACT_EXAMPLES's. */
  readonly example: string;
}

/**
 * The facts discovery could not find: those left at choices.md's convention with nothing to
 * confirm it (no profile, document or probe said so), and those found absent (null) by probes,
 * which a target that does have the thing under another name must state. restSegments, which
 * only a document names, is never listed: choices.md's groups are a safe default.
 */
export function missingFacts(facts: TargetFacts): MissingFact[] {
  return FACT_KEYS.filter((key) => key !== "restSegments")
    .filter((key) => facts[key].source === "default" || (facts[key].source === "probe" && facts[key].value === null))
    .map((key) => ({
      key,
      why: facts[key].source === "default" ? "no probe confirmed docs/choices.md's convention (assumed)" : facts[key].evidence,
      example: FACT_EXAMPLES[key],
    }));
}

/** The facts as a ready --target-profile file: what `cpsim conform --discover` prints. */
export function factsAsProfile(facts: TargetFacts): string {
  const missing = missingFacts(facts);
  const profile: Record<string, unknown> = {
    $comment: `cpsim target profile, written by cpsim conform --discover; edit and pass with --target-profile FILE${
      missing.length ? `. Not found, to fill in: ${missing.map((m) => m.key).join(", ")}` : ""
    }`,
  };
  const sources: Record<string, string> = {};
  for (const key of FACT_KEYS) {
    profile[key] = facts[key].value;
    sources[key] = `${facts[key].source}: ${facts[key].evidence}`;
  }
  profile["description"] = `how each fact was found: ${Object.entries(sources).map(([k, v]) => `${k} (${v})`).join("; ")}`;
  return `${JSON.stringify(profile, null, 2)}\n`;
}
