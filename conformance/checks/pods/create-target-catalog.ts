/**
 * What the target offers, read from the target itself: GPU types, CPU flavors, data centers and
 * network volumes. Valid createPod bodies are built from these ids, never from the emulator's,
 * because another implementation names its GPU types and data centers as it likes.
 *
 * The catalog reads' shapes are choices.md's, not the spec's, so every read falls back: a
 * missing or differently shaped answer leaves that part empty (GPU types then come from the
 * spec's GraphQL `gpuTypes`), and the rules that need it are skipped with the reason.
 *
 * One read per run: the result is cached on the run's options object, which every check of a
 * run shares. Stock read here may be stale later; it only steers valid bodies towards types
 * with capacity, and a refusal for capacity is never a verdict.
 */
import type { ArbitraryCatalog } from "../../../sim/api/validate/index.ts";
import type { CheckContext } from "../../check.ts";
import { missingFact, readList, readNetworkVolumes } from "../../target-facts/index.ts";
import { volumeAcceptedInCreate } from "./accepted-volume.ts";
import { newCatalogRefusals, type CatalogRefusals } from "./catalog-refusals.ts";
import { countOf, flavorVcpuCounts } from "./flavor-vcpu-counts.ts";
import { readGlobalNetwork, type GlobalNetworkReading } from "./global-network-reading.ts";

export type CloudName = "SECURE" | "COMMUNITY";

/** A GPU type as one cloud offers it. */
export interface GpuOffer {
  /** GPU counts the target says it could give now; undefined when it does not say. */
  readonly counts?: readonly number[];
  /** False only when the target says there is no stock. */
  readonly inStock: boolean;
}

export interface TargetGpu {
  readonly id: string;
  /** "Nvidia", "AMD", or "unknown" when neither the entry nor its name says. */
  readonly manufacturer: string;
  readonly offers: Partial<Record<CloudName, GpuOffer>>;
}

export interface TargetFlavor {
  readonly id: string;
  /** The vCPU counts the flavor accepts; undefined when the catalog does not say. */
  readonly vcpuCounts?: readonly number[];
  /** Counts with stock now, when the catalog says (else vcpuCounts). */
  readonly availableCounts?: readonly number[];
  readonly ramGbPerVcpu?: number;
}

export interface TargetDataCenter {
  readonly id: string;
  /** The raw `globalNetwork` value (any type: the spec states none). */
  readonly globalNetwork: unknown;
  /** What that value says: eligible for global networking, not, or unknown (global-network-reading.ts). */
  readonly globalNetworkReading: GlobalNetworkReading;
  /** GPU type ids with stock there, when the catalog says. */
  readonly gpus?: ReadonlySet<string>;
}

export interface TargetCatalog {
  readonly gpus: readonly TargetGpu[];
  readonly flavors: readonly TargetFlavor[];
  readonly dataCenters: readonly TargetDataCenter[];
  readonly volumes: readonly { readonly id: string; readonly dataCenterId: string }[];
  /** The caller's registry credentials; undefined when the target lists none the suite can read. */
  readonly registries?: readonly { readonly id: string }[];
  /** Where each part came from, or why it is empty: for skip reasons and the log. */
  readonly notes: readonly string[];
  /** Catalog values the target refused in a body, learnt during the run (catalog-refusals.ts). */
  readonly refused: CatalogRefusals;
}

const caches = new WeakMap<object, Promise<TargetCatalog>>();

export interface CatalogReadOptions {
  /**
   * Where the target lists no network volume, create a pod with a network mount to learn whether
   * it takes one (default true). `cpsim load` reads the catalog without it: it needs no volume,
   * and a read must not send creates the run's figures would count.
   */
  readonly probeVolumeInCreate?: boolean;
}

/** The target's catalog, read once per run. */
export function targetCatalog(ctx: CheckContext, read: CatalogReadOptions = {}): Promise<TargetCatalog> {
  let cached = caches.get(ctx.options);
  if (!cached) {
    cached = readCatalog(ctx, read.probeVolumeInCreate ?? true);
    caches.set(ctx.options, cached);
    // A target error is reported by the check that met it; the next check reads again.
    cached.catch(() => caches.delete(ctx.options));
  }
  return cached;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === "string" && v !== "";
/** A list of counts, as JSON integers or decimal strings (the catalog's types are not shown). */
const intList = (v: unknown): number[] | undefined =>
  Array.isArray(v) && v.every((n) => countOf(n) !== undefined) ? v.map((n) => countOf(n)!) : undefined;


/** Who makes a GPU, from the entry or, failing that, from its id and name. */
export function manufacturerOf(entry: Record<string, unknown>): string {
  if (nonEmpty(entry.manufacturer)) return entry.manufacturer;
  const text = `${String(entry.id ?? "")} ${String(entry.displayName ?? "")}`;
  if (/\b(amd|instinct|radeon|mi\d{3}x?)\b/i.test(text)) return "AMD";
  if (/\b(nvidia|geforce|rtx|tesla|quadro|[ahlb]\d{2,3}|l4|l40s?|a40)\b/i.test(text)) return "Nvidia";
  return "unknown";
}

function gpuOffer(entry: Record<string, unknown>): GpuOffer {
  const counts = intList(entry.availableGpuCounts);
  const none = entry.stockStatus === "None" || (counts !== undefined && counts.length === 0);
  return { ...(counts ? { counts } : {}), inStock: !none };
}

/** The whole list a GET answers (every page, in or out of an envelope); undefined when it gives none. */
async function getList(ctx: CheckContext, path: string, field: string, query?: Record<string, string>): Promise<unknown[] | undefined> {
  return (await readList(ctx.client, { method: "GET", url: `${ctx.target.rest}${path}`, auth: { key: "api" }, ...(query ? { query } : {}) }, field))?.items;
}

/**
 * The clouds an entry itself says it is offered in, when it says: GraphQL's `secureCloud` and
 * `communityCloud` flags, or a `clouds` / `cloudTypes` list, or a `cloud` / `cloudType` word.
 * Undefined when it says nothing (the `cloud` query it was listed under then tells).
 */
export function cloudsOfEntry(entry: Record<string, unknown>): Set<CloudName> | undefined {
  const out = new Set<CloudName>();
  const flags = [["secureCloud", "SECURE"], ["communityCloud", "COMMUNITY"]] as const;
  if (flags.some(([k]) => typeof entry[k] === "boolean")) {
    for (const [k, cloud] of flags) if (entry[k] === true) out.add(cloud);
    return out;
  }
  const list = [entry.clouds, entry.cloudTypes].find(Array.isArray) ?? [entry.cloud, entry.cloudType].filter((v) => typeof v === "string");
  if ((list as unknown[]).length === 0) return undefined;
  for (const v of list as unknown[]) {
    const word = String(v).toUpperCase();
    if (word === "SECURE" || word === "COMMUNITY") out.add(word);
    if (word === "ALL") (out.add("SECURE"), out.add("COMMUNITY"));
  }
  return out;
}

async function readGpus(ctx: CheckContext, notes: string[]): Promise<TargetGpu[]> {
  const byId = new Map<string, { id: string; manufacturer: string; offers: Partial<Record<CloudName, GpuOffer>> }>();
  const catalogPath = ctx.facts.gpuCatalogPath.value;
  for (const cloud of catalogPath === null ? [] : (["SECURE", "COMMUNITY"] as const)) {
    const list = await getList(ctx, catalogPath!, "gpus", { cloud });
    if (!list) continue;
    for (const entry of list) {
      if (!isObject(entry) || !nonEmpty(entry.id)) continue;
      const gpu = byId.get(entry.id) ?? { id: entry.id, manufacturer: manufacturerOf(entry), offers: {} };
      // An entry that names its clouds is believed over the query it was listed under (a
      // catalog may ignore the query and list every type).
      const says = cloudsOfEntry(entry);
      if (says === undefined || says.has(cloud)) gpu.offers[cloud] = gpuOffer(entry);
      byId.set(entry.id, gpu);
    }
  }
  if (byId.size > 0) {
    notes.push(`${byId.size} GPU types from GET ${catalogPath}`);
    return [...byId.values()];
  }
  // The spec's own way to list GPU types: GraphQL `gpuTypes`, key in `api_key`.
  const res = await ctx.client.request({
    method: "POST",
    url: `${ctx.target.rest}/graphql`,
    auth: { key: "api", via: "query" },
    json: { query: "{ gpuTypes { id displayName secureCloud communityCloud } }" },
  });
  const types = isObject(res.json) && isObject(res.json.data) ? res.json.data.gpuTypes : undefined;
  for (const entry of Array.isArray(types) ? types : []) {
    if (!isObject(entry) || !nonEmpty(entry.id)) continue;
    const offers: Partial<Record<CloudName, GpuOffer>> = {};
    if (entry.secureCloud !== false) offers.SECURE = { inStock: true };
    if (entry.communityCloud === true) offers.COMMUNITY = { inStock: true };
    byId.set(entry.id, { id: entry.id, manufacturer: manufacturerOf(entry), offers });
  }
  notes.push(byId.size > 0 ? `${byId.size} GPU types from GraphQL gpuTypes` : "no GPU types (neither GET /v2/catalog/gpus nor GraphQL gpuTypes listed any)");
  return [...byId.values()];
}

async function readFlavors(ctx: CheckContext, notes: string[]): Promise<TargetFlavor[]> {
  const path = ctx.facts.cpuCatalogPath.value;
  const list = (path === null ? undefined : await getList(ctx, path, "cpus")) ?? [];
  const flavors: TargetFlavor[] = [];
  for (const entry of list) {
    if (!isObject(entry) || !nonEmpty(entry.id)) continue;
    const counts = flavorVcpuCounts(entry);
    const available = isObject(entry.availability) ? intList(entry.availability.availableVcpuCounts) : undefined;
    const ramGb = typeof entry.ramGbPerVcpu === "string" ? Number(entry.ramGbPerVcpu) : entry.ramGbPerVcpu;
    const ram = typeof ramGb === "number" && Number.isFinite(ramGb) && ramGb > 0 ? ramGb : undefined;
    flavors.push({
      id: entry.id,
      ...(counts ? { vcpuCounts: counts } : {}),
      ...(available && counts ? { availableCounts: available.filter((n) => counts.includes(n)) } : {}),
      ...(ram !== undefined ? { ramGbPerVcpu: ram } : {}),
    });
  }
  const counted = flavors.filter((f) => f.vcpuCounts !== undefined).length;
  notes.push(
    flavors.length > 0
      ? `${flavors.length} CPU flavors from GET ${path} (${counted} with vCPU counts it states)`
      : `no CPU flavors (${path === null ? "the target has no CPU catalog" : `GET ${path} listed none`})`,
  );
  return flavors;
}

async function readDataCenters(ctx: CheckContext, notes: string[]): Promise<TargetDataCenter[]> {
  const path = ctx.facts.dataCenterCatalogPath.value;
  const list = (path === null ? undefined : await getList(ctx, path, "dataCenters")) ?? [];
  const out: TargetDataCenter[] = [];
  for (const entry of list) {
    if (!isObject(entry) || !nonEmpty(entry.id)) continue;
    let gpus: Set<string> | undefined;
    if (Array.isArray(entry.gpuAvailability)) {
      gpus = new Set(
        entry.gpuAvailability
          .filter((a): a is Record<string, unknown> => isObject(a) && nonEmpty(a.gpuTypeId) && a.stockStatus !== "None")
          .map((a) => a.gpuTypeId as string),
      );
    }
    out.push({ id: entry.id, globalNetwork: entry.globalNetwork, globalNetworkReading: readGlobalNetwork(entry.globalNetwork), ...(gpus ? { gpus } : {}) });
  }
  notes.push(out.length > 0 ? `${out.length} data centers from GET ${path}` : `no data centers (${path === null ? "the target has no data-center catalog" : `GET ${path} listed none`})`);
  return out;
}

async function readVolumes(ctx: CheckContext, notes: string[], gpus: readonly TargetGpu[], flavors: readonly TargetFlavor[], probe: boolean): Promise<TargetCatalog["volumes"]> {
  // Not in the spec ("Network Volumes" is only a group name): the target's facts say where.
  const read = await readNetworkVolumes(ctx);
  const out = "missing" in read ? [] : read.volumes.flatMap((v) => (v.dataCenterId ? [{ id: v.id, dataCenterId: v.dataCenterId }] : []));
  if (out.length > 0) {
    notes.push(`${out.length} network volumes from ${"from" in read ? read.from : ""}`);
    return out;
  }
  // None listed: a volume id the target itself accepts in a create, if it takes one.
  if (!probe) {
    notes.push("missing" in read ? read.missing : `no network volumes (${read.from} listed none)`);
    return [];
  }
  const accepted = await volumeAcceptedInCreate(ctx, computesOf(gpus, flavors));
  if ("id" in accepted && accepted.dataCenterId) {
    notes.push(`the network volume of ${accepted.from}`);
    return [{ id: accepted.id, dataCenterId: accepted.dataCenterId }];
  }
  notes.push("missing" in read ? read.missing : `no network volumes (${read.from} listed none)`);
  if ("reason" in accepted) notes.push(accepted.reason);
  return [];
}

/** createPod compute fields, a CPU flavor first (the cheapest pod), then the GPU type most likely in stock. */
export function computesOf(gpus: readonly TargetGpu[], flavors: readonly TargetFlavor[]): Record<string, unknown>[] {
  const cpu = flavors.map((f) => ({ cpu: { id: f.id, vcpuCount: (f.availableCounts ?? f.vcpuCounts ?? [2])[0] ?? 2 } }));
  const gpu = gpus.filter((g) => Object.values(g.offers).some((o) => o?.inStock)).map((g) => ({ gpu: { id: g.id } }));
  return [...cpu.slice(0, 1), ...gpu.slice(0, 1)];
}

async function readRegistries(ctx: CheckContext, notes: string[]): Promise<TargetCatalog["registries"]> {
  // Not in the spec either: the target's facts say where; the list is `registries`, else the only array.
  const fact = ctx.facts.registriesPath;
  if (fact.value === null) {
    notes.push(`${missingFact("registriesPath", fact.evidence)}: \`registry\` rules are skipped`);
    return undefined;
  }
  const list = await getList(ctx, fact.value, "registries");
  if (list === undefined) {
    notes.push(`no registry credentials read (GET ${fact.value} (${fact.source}) gave no list): \`registry\` rules are skipped`);
    return undefined;
  }
  const out = list.filter((r): r is Record<string, unknown> => isObject(r) && nonEmpty(r.id)).map((r) => ({ id: r.id as string }));
  notes.push(`${out.length} registry credentials from GET ${fact.value}`);
  return out;
}

async function readCatalog(ctx: CheckContext, probeVolume: boolean): Promise<TargetCatalog> {
  const notes: string[] = [];
  const gpus = await readGpus(ctx, notes);
  const flavors = await readFlavors(ctx, notes);
  const dataCenters = await readDataCenters(ctx, notes);
  const volumes = await readVolumes(ctx, notes, gpus, flavors, probeVolume);
  const registries = await readRegistries(ctx, notes);
  return { gpus, flavors, dataCenters, volumes, ...(registries ? { registries } : {}), notes, refused: newCatalogRefusals() };
}

/** Whether the data center's catalog entry says it is eligible for global networking. */
export const globalNetworkDc = (dc: TargetDataCenter): boolean => dc.globalNetworkReading === "eligible";

/** Every id the target named, for the rule breakers (which need ids that exist). */
export function knownCatalog(tc: TargetCatalog, opts: { knownMakers?: boolean; exactFlavors?: boolean } = {}): ArbitraryCatalog {
  return {
    gpuTypes: tc.gpus.filter((g) => !opts.knownMakers || g.manufacturer !== "unknown").map((g) => ({ id: g.id, manufacturer: g.manufacturer })),
    // A flavor whose counts the catalog does not give is tried with 2, the spec's minimum,
    // except where the rule needs to know a count the flavor lacks.
    cpuFlavors: tc.flavors
      .filter((f) => !opts.exactFlavors || f.vcpuCounts !== undefined)
      .map((f) => ({ id: f.id, vcpuCounts: f.vcpuCounts ?? [2] })),
    networkVolumes: tc.volumes,
    // A data center whose eligibility is unknown is never taken for an ineligible one.
    dataCenters: tc.dataCenters.map((d) => ({ id: d.id, globalNetwork: d.globalNetworkReading !== "ineligible" })),
    ...(tc.registries ? { registries: tc.registries } : {}),
  };
}

/** GPU types offered with stock in some cloud. */
export function gpusInStock(tc: TargetCatalog): TargetGpu[] {
  const stocked = tc.gpus.filter((g) => Object.values(g.offers).some((o) => o?.inStock));
  return stocked.length > 0 ? stocked : [...tc.gpus];
}

/** The catalog valid bodies draw from: types and sizes with stock, flavors whose counts are known. */
export function usableCatalog(tc: TargetCatalog): ArbitraryCatalog {
  const flavors = tc.flavors
    .filter((f) => f.vcpuCounts !== undefined)
    .map((f) => ({ id: f.id, vcpuCounts: f.availableCounts && f.availableCounts.length > 0 ? f.availableCounts : f.vcpuCounts! }))
    // A count the target refused for its flavor (naming it) is not drawn again.
    .map((f) => ({ ...f, vcpuCounts: f.vcpuCounts.filter((n) => !tc.refused.flavorCounts.has(`${f.id}@${n}`)) }));
  return {
    gpuTypes: gpusInStock(tc).map((g) => ({ id: g.id, manufacturer: g.manufacturer })),
    cpuFlavors: flavors,
    networkVolumes: tc.volumes,
    dataCenters: tc.dataCenters.map((d) => ({ id: d.id, globalNetwork: globalNetworkDc(d) })),
    ...(tc.registries ? { registries: tc.registries } : {}),
  };
}
