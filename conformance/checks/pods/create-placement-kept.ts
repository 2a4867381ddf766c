/**
 * Lenient readings of two placement rules whose breaking names preferred data centers. The spec
 * calls `dataCenterIds` "Preferred data centers" and states no restriction, so a target may place
 * the pod elsewhere: a network volume must be "in the same data center as the pod", and global
 * networking needs "a data center that supports global networking". A pod created in the volume's
 * data center, or with global networking in a data center whose catalog entry says it is eligible,
 * keeps the rule as well as a refusal does, whatever the body preferred.
 */
import type { RuleId } from "../../../sim/api/rules/index.ts";
import type { TargetCatalog } from "./create-target-catalog.ts";

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Rules whose accepted body may still keep the constraint by where the pod was placed. */
export const PLACEMENT_RULES: ReadonlySet<RuleId> = new Set(["pods.create.network-volume-data-center", "pods.create.global-networking-data-center"] as RuleId[]);

/**
 * For a 2xx answer to a body breaking `ruleId`: "kept" when the created pod's placement keeps the
 * constraint, else what is wrong with it, or undefined when placement says nothing (judged otherwise).
 */
export function placementKept(ruleId: RuleId, broken: unknown, pod: unknown, tc: TargetCatalog): "kept" | string | undefined {
  if (!isObj(broken) || !isObj(pod)) return undefined;
  const placed = typeof pod.dataCenterId === "string" ? pod.dataCenterId : undefined;
  if (ruleId === "pods.create.network-volume-data-center") {
    const volumeId = broken.mounts?.network?.[0]?.volumeId;
    const volumeDc = tc.volumes.find((v) => v.id === volumeId)?.dataCenterId;
    if (volumeDc === undefined) return undefined;
    return placed === volumeDc ? "kept" : `the pod was placed in ${JSON.stringify(pod.dataCenterId)}, not in the volume's data center ${volumeDc}`;
  }
  if (ruleId === "pods.create.global-networking-data-center") {
    if (!isObj(pod.globalNetworking) || pod.globalNetworking.enabled !== true) return undefined;
    const dc = tc.dataCenters.find((d) => d.id === placed);
    return dc?.globalNetworkReading === "eligible" ? "kept" : `the pod has global networking in ${JSON.stringify(pod.dataCenterId)}, whose catalog entry does not say it is eligible`;
  }
  return undefined;
}
