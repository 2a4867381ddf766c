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

/** The facts as a ready --target-profile file: what `cpsim conform --discover` prints. */
export function factsAsProfile(facts: TargetFacts): string {
  const profile: Record<string, unknown> = {
    $comment: "cpsim target profile, written by cpsim conform --discover; edit and pass with --target-profile FILE",
  };
  const sources: Record<string, string> = {};
  for (const key of FACT_KEYS) {
    profile[key] = facts[key].value;
    sources[key] = `${facts[key].source}: ${facts[key].evidence}`;
  }
  profile["description"] = `how each fact was found: ${Object.entries(sources).map(([k, v]) => `${k} (${v})`).join("; ")}`;
  return `${JSON.stringify(profile, null, 2)}\n`;
}
