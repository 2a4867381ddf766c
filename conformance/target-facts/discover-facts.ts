/**
 * Reads the target's facts once per run, each from the best source there is: the
 * --target-profile file first (its owner knows best), then the target's own description of its API
 * (found by RFC 8631 links, RFC 9727's api-catalog or the usual places; JSON or YAML), then the
 * links its root publishes (RFC 8288 headers, HAL or JSON:API bodies), then harmless probes, and
 * choices.md's convention when nothing else says.
 */
import type { Client } from "../client.ts";
import { TargetError } from "../errors.ts";
import {
  probeCpuCatalog, probeDataCenterCatalog, probeGpuCatalog, probeImageModel, probeNetworkVolumes, probePodActions, probePodDelete, probePodList, probeRegistries,
  type ProbeFinding, type Prober,
} from "./probe-facts.ts";
import { findServiceDescription, type RootLink } from "./service-description.ts";
import { FACT_KEYS, defaultTargetFacts, type Fact, type FactKey, type FactValues, type TargetFacts } from "./target-facts.ts";
import type { TargetProfile } from "./target-profile.ts";

export interface DiscoverInput {
  readonly client: Client;
  readonly rest: string;
  readonly serverless: string;
  readonly profile?: TargetProfile;
  /** Probes need the full-access key; without it only the profile, the description and the links are read. */
  readonly hasApiKey: boolean;
  readonly timeoutMs: number;
  /** Told of each step, for the progress log. */
  readonly log?: (message: string) => void;
}

const PROBES: { readonly [K in FactKey]: (probe: Prober, known: Partial<FactValues>) => Promise<ProbeFinding<K> | undefined> } = {
  podActionPath: probePodActions,
  podDeletePath: probePodDelete,
  podListPath: probePodList,
  networkVolumes: (p, known) => probeNetworkVolumes(p, known.dataCenterCatalogPath ?? undefined),
  gpuCatalogPath: probeGpuCatalog,
  cpuCatalogPath: probeCpuCatalog,
  dataCenterCatalogPath: probeDataCenterCatalog,
  imageModel: probeImageModel,
  registriesPath: probeRegistries,
  // Only a document names the target's groups; probing every word would be guessing.
  restSegments: async () => undefined,
};

/** Probed in this order: the data-center catalog before the volumes a data center may link to. */
const PROBE_ORDER: readonly FactKey[] = [...FACT_KEYS.filter((k) => k !== "networkVolumes"), "networkVolumes"];

/** Relation names (lower case) a root link may carry for a collection, by the fact it states. */
const LINK_RELS: Partial<Record<FactKey, RegExp>> = {
  podListPath: /^(pods|pod-list)$/,
  networkVolumes: /^(network[-_]?volumes|volumes)$/,
  gpuCatalogPath: /^(gpus|gpu[-_]?types|catalog[-_:/]gpus)$/,
  cpuCatalogPath: /^(cpus|cpu[-_]?flavors|cpu[-_]?types|flavors|catalog[-_:/]cpus)$/,
  dataCenterCatalogPath: /^(datacenters|data[-_]?centers|catalog[-_:/]datacenters)$/,
  registriesPath: /^(registries|containerregistryauths?|container[-_]registry[-_]auths?)$/,
};

/** The facts the root's links state (same origin only): a relation naming a collection. */
function factsFromLinks(links: readonly RootLink[], rest: string): Partial<Record<FactKey, { value: unknown; evidence: string }>> {
  const origin = new URL(rest).origin;
  const restPath = new URL(rest).pathname.replace(/\/+$/, "");
  const out: Partial<Record<FactKey, { value: unknown; evidence: string }>> = {};
  for (const [key, re] of Object.entries(LINK_RELS) as [FactKey, RegExp][]) {
    const link = links.find((l) => l.rels.some((r) => re.test(r)) && new URL(l.href).origin === origin);
    if (!link) continue;
    const path = new URL(link.href).pathname.slice(restPath.length) || "/";
    const rel = link.rels.find((r) => re.test(r))!;
    out[key] = { value: key === "networkVolumes" ? { path } : path, evidence: `linked rel="${rel}" from ${link.from}` };
  }
  return out;
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

  // Documents are often public; the key goes along (to the target's own origin) when there is one.
  const search = await findServiceDescription({ client: input.client, rest: input.rest, hasApiKey: input.hasApiKey, timeoutMs });
  const described = search.description;
  if (described) input.log?.(`the API description: ${described.url} (${described.via})`);
  else input.log?.(`no API description found (tried ${search.tried.length} places: ${search.tried.slice(0, 4).join(", ")}${search.tried.length > 4 ? ", ..." : ""})`);
  const linked = factsFromLinks(search.rootLinks, input.rest);
  for (const key of open) {
    if (described && key in described.findings.values) {
      const evidence = `${described.findings.evidence[key] ?? "the target's OpenAPI document"}, found through ${described.via}`;
      facts[key] = { key, value: described.findings.values[key], source: "openapi", evidence } as Fact;
    } else if (linked[key]) {
      facts[key] = { key, value: linked[key]!.value, source: "links", evidence: linked[key]!.evidence } as Fact;
    }
  }
  const known = (): Partial<FactValues> => Object.fromEntries(FACT_KEYS.map((k) => [k, facts[k].value])) as Partial<FactValues>;
  if (input.hasApiKey) {
    for (const key of PROBE_ORDER.filter((k) => open.includes(k))) {
      if (facts[key].source === "openapi" || facts[key].source === "links") continue;
      const found = await PROBES[key](probe, known());
      if (found) facts[key] = { key, value: found.value, source: "probe", evidence: found.evidence } as Fact;
    }
  }
  for (const key of open) input.log?.(`${key}: ${JSON.stringify(facts[key].value)} (${facts[key].source}: ${facts[key].evidence})`);
  return facts as unknown as TargetFacts;
}

/** How each fact is stated in a profile, for the list of facts discovery could not find. */
export const FACT_EXAMPLES: { readonly [K in FactKey]: string } = {
  podActionPath: '"/v2/pods/{podId}/action" (the action in a body), "/v2/pods/{podId}/{action}", "/v2/pods/{podId}:{action}", or "PATCH /v2/pods/{podId}" (a desiredStatus)',
  podDeletePath: '"/v2/pods/{podId}", or null where DELETE is not served (terminate is then the action)',
  podListPath: '"/v2/pods"',
  networkVolumes: '{"path": "/v2/volumes"}, {"dataCenterField": "volumes"}, {"dataCenterPath": "/v2/datacenters/{dataCenterId}/volumes"}, {"dataCenterLink": "volumes"}, {"ids": ["vol-1", {"id": "vol-2", "dataCenterId": "EU-RO-1"}]}, or null',
  gpuCatalogPath: '"/v2/catalog/gpus", or null',
  cpuCatalogPath: '"/v2/catalog/cpus", or null',
  dataCenterCatalogPath: '"/v2/catalog/datacenters", or null',
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
