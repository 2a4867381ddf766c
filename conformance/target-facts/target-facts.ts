/**
 * What the suite knows about the target where the spec shows no path or shape: how a pod is
 * started and stopped, how it is deleted and listed, where network volumes and the GPU catalog
 * are, which public image model is served. Every check asks these facts instead of hard-coding a
 * convention (the registry credentials' list and the REST groups, which a job endpoint id must
 * never shadow, too), and every fact records where it came from (a --target-profile file, the target's
 * OpenAPI document, the links the target publishes (RFC 8288 headers, HAL or JSON:API bodies), a
 * harmless probe, or the default: choices.md's convention), so the report can
 * say how the target was read and a skip can name the fact that was missing.
 */

export type FactSource = "profile" | "openapi" | "links" | "probe" | "default";

/**
 * Where the target lists its network volumes: a collection, a field of each data-center catalog
 * entry, each data center's own collection (`dataCenterPath`, a template with `{dataCenterId}`),
 * or a link of each data-center entry (`dataCenterLink`: the relation, HAL `_links` or JSON:API
 * `links`, or a field holding the URL); or, for a target that lists them nowhere, the volumes
 * themselves (a profile states them).
 */
export type VolumeSource =
  | { readonly path: string; readonly field?: string }
  | { readonly dataCenterField: string }
  | { readonly dataCenterPath: string }
  | { readonly dataCenterLink: string }
  | { readonly ids: readonly StatedVolume[] };

/** A network volume a --target-profile names: its id, and its data center where the profile says. */
export interface StatedVolume {
  readonly id: string;
  readonly dataCenterId?: string;
}

export interface FactValues {
  /**
   * The pod action route. With `{action}` in it, the action is in the path and the body is empty
   * (`/v2/pods/{podId}/{action}`, `/v2/pods/{podId}:{action}`); without, the body is
   * `{"action": ...}` (`/v2/pods/{podId}/action`); after `PATCH ` (`PATCH /v2/pods/{podId}`), the
   * body is the desired status (`{"desiredStatus": "EXITED"}`), and restart is not served.
   */
  readonly podActionPath: string;
  /** DELETE on this path terminates a pod; null: the target has no DELETE, terminate goes through the action. */
  readonly podDeletePath: string | null;
  /** GET on this path lists the account's pods. */
  readonly podListPath: string;
  /** Where network volumes are listed; null: the target has none to list. */
  readonly networkVolumes: VolumeSource | null;
  /** GET on this path lists GPU types; null: the target has no GPU catalog. */
  readonly gpuCatalogPath: string | null;
  /** GET on this path lists CPU flavors (with their vCPU counts); null: the target has none. */
  readonly cpuCatalogPath: string | null;
  /** GET on this path lists data centers; null: the target has no data-center catalog. */
  readonly dataCenterCatalogPath: string | null;
  /** The slug of a public image-generation model; null: the target serves none. */
  readonly imageModel: string | null;
  /** GET on this path lists the account's container registry credentials; null: the target has none to list. */
  readonly registriesPath: string | null;
  /**
   * The REST groups (`/v2/<segment>/...`) the target serves beside the job routes: none may be
   * taken for a job endpoint's id. choices.md's groups, the paths official clients call, and
   * every group the target's OpenAPI document names.
   */
  readonly restSegments: readonly string[];
}

export type FactKey = keyof FactValues;

export const FACT_KEYS: readonly FactKey[] = [
  "podActionPath", "podDeletePath", "podListPath", "networkVolumes", "gpuCatalogPath", "cpuCatalogPath", "dataCenterCatalogPath", "imageModel", "registriesPath", "restSegments",
];

/**
 * choices.md's REST groups, their legacy spellings, and the paths newer official clients call
 * (`/v2/serverless`, `/v2/registries`, `/v2/account`): never a job endpoint's id.
 */
export const DEFAULT_REST_SEGMENTS: readonly string[] = Object.freeze([
  "pods", "catalog", "templates", "network-volumes", "networkvolumes", "registries", "containerregistryauth", "billing", "endpoints", "serverless", "account", "graphql",
]);

export interface Fact<K extends FactKey = FactKey> {
  readonly key: K;
  readonly value: FactValues[K];
  readonly source: FactSource;
  /** How it was found, in words: "POST /v2/pods/{podId}/{action} in /openapi.json", "GET /v2/networkvolumes answered 200". */
  readonly evidence: string;
}

export type TargetFacts = { readonly [K in FactKey]: Fact<K> };

/** choices.md's conventions: what the suite assumes when nothing else says. */
export const DEFAULT_FACTS: FactValues = {
  podActionPath: "/v2/pods/{podId}/action",
  podDeletePath: "/v2/pods/{podId}",
  podListPath: "/v2/pods",
  networkVolumes: { path: "/v2/networkvolumes", field: "networkVolumes" },
  gpuCatalogPath: "/v2/catalog/gpus",
  cpuCatalogPath: "/v2/catalog/cpus",
  dataCenterCatalogPath: "/v2/catalog/datacenters",
  imageModel: "flux-1-schnell",
  registriesPath: "/v2/containerregistryauth",
  restSegments: DEFAULT_REST_SEGMENTS,
};

/** What each fact means, for skip reasons and the report ("the pod action route"). */
export const FACT_MEANING: { readonly [K in FactKey]: string } = {
  podActionPath: "the pod action route (start, stop, restart, terminate)",
  podDeletePath: "the pod delete route",
  podListPath: "the pod list route",
  networkVolumes: "where the target lists its network volumes (or the volume ids themselves)",
  gpuCatalogPath: "the GPU type catalog route",
  cpuCatalogPath: "the CPU flavor catalog route",
  dataCenterCatalogPath: "the data-center catalog route",
  imageModel: "a public image-generation model's slug",
  registriesPath: "the registry credentials' list route",
  restSegments: "the REST groups a job endpoint id must not shadow",
};

export function defaultTargetFacts(): TargetFacts {
  const facts = {} as Record<FactKey, Fact>;
  for (const key of FACT_KEYS) facts[key] = { key, value: DEFAULT_FACTS[key], source: "default", evidence: "docs/choices.md's convention" } as Fact;
  return facts as unknown as TargetFacts;
}

/**
 * A skip reason for a rule that needs a fact the target lacks or the suite could not find: it
 * names the fact and the --target-profile key that would supply it.
 */
export function missingFact(key: FactKey, why: string): string {
  return `${FACT_MEANING[key]} is unknown for this target (${why}); state it in a --target-profile file under "${key}" (see cpsim conform --discover)`;
}

/** A path template filled in: `{podId}` and `{action}` replaced, each value URL-encoded. */
export function fillPath(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (values[name] === undefined ? whole : encodeURIComponent(values[name]!)));
}
