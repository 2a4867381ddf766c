/**
 * What the target refused of the values the suite drew from its own catalog: a GPU type in a
 * cloud, a CPU flavor with a vCPU count, a data center, a network volume. A valid body is built
 * from the target's catalogs, and a catalog may say less than the target knows (a GPU type listed
 * for both clouds but offered in one). When the target refuses such a body and its error names
 * the path of a value the suite chose (`/gpu/id`, `cloud`, `/cpu/vcpuCount`, `dataCenterIds`,
 * `/mounts/network/0/volumeId`), the refusal is learnt, never a verdict: the pairing is kept here
 * (per run, on the catalog's record) and the next bodies avoid it (create-valid-body.ts).
 */
import type { ClientResponse } from "../../client.ts";
import { errorText, leaves, names } from "../../values/leaves.ts";
import { capacityWords } from "./create-capacity.ts";

/** The pointers of a createPod body whose values come from the target's catalog. */
const CATALOG_POINTER = /^\/(gpu(\/|$)|cpu(\/|$)|cloud$|dataCenterIds(\/|$)|mounts\/network\/\d+\/volumeId$|registry$)/;

export interface CatalogRefusals {
  /** `<gpu id>@<cloud>` pairs refused. */
  readonly gpuClouds: Set<string>;
  /** `<flavor id>@<vcpu count>` pairs refused. */
  readonly flavorCounts: Set<string>;
  /** Data center ids refused. */
  readonly dataCenters: Set<string>;
  /** What was learnt, in words, for skip reasons and the log. */
  readonly notes: string[];
}

export const newCatalogRefusals = (): CatalogRefusals => ({ gpuClouds: new Set(), flavorCounts: new Set(), dataCenters: new Set(), notes: [] });

const LIMIT = 200;
const isObject = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The catalog value a refusal of `body` names, learnt into `into`; undefined when the answer is
 * no such refusal (a 2xx, a refusal for capacity, or one that names no catalog value, or several).
 */
export function learnCatalogRefusal(into: CatalogRefusals, body: unknown, res: Pick<ClientResponse, "status" | "text">): string | undefined {
  if ((res.status !== 400 && res.status !== 422) || !isObject(body)) return undefined;
  const text = errorText(res.text);
  if (capacityWords(text)) return undefined;
  const flat = leaves(body);
  const named = [...flat.keys()].filter((p) => CATALOG_POINTER.test(p) && names(text, p, flat));
  // A gpu's id and count, or a cpu's id and count, named together are one choice.
  const groups = new Set(named.map((p) => p.split("/")[1]));
  if (groups.size !== 1) return undefined;
  const group = [...groups][0]!;
  const b = body as Record<string, any>;
  let learnt: string | undefined;
  if (group === "gpu" || group === "cloud") {
    if (isObject(b.gpu) && typeof b.gpu.id === "string") {
      const pair = `${b.gpu.id}@${b.cloud ?? "SECURE"}`;
      if (into.gpuClouds.size < LIMIT) into.gpuClouds.add(pair);
      learnt = `GPU type ${b.gpu.id} in the ${b.cloud ?? "SECURE"} cloud`;
    }
  } else if (group === "cpu") {
    if (isObject(b.cpu) && typeof b.cpu.id === "string") {
      if (into.flavorCounts.size < LIMIT) into.flavorCounts.add(`${b.cpu.id}@${b.cpu.vcpuCount}`);
      learnt = `CPU flavor ${b.cpu.id} with ${JSON.stringify(b.cpu.vcpuCount)} vCPUs`;
    }
  } else if (group === "dataCenterIds" && Array.isArray(b.dataCenterIds) && b.dataCenterIds.length === 1) {
    if (into.dataCenters.size < LIMIT) into.dataCenters.add(String(b.dataCenterIds[0]));
    learnt = `data center ${String(b.dataCenterIds[0])}`;
  } else {
    learnt = `${named[0]} = ${JSON.stringify(flat.get(named[0]!))}`;
  }
  if (learnt === undefined) return undefined;
  const note = `the target refused ${learnt} (HTTP ${res.status}, naming ${named.join(", ")}): learnt, not judged`;
  if (into.notes.length < 20 && !into.notes.includes(note)) into.notes.push(note);
  return note;
}
