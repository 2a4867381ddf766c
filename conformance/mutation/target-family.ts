/**
 * Target families: the emulator with a point of the open-choice space (sim/conventions/), so the
 * suite is scored against implementations unlike its twin (`cpsim mutation --conventions`, and the
 * suite's own tests). The conventions a probe cannot guess (a path nobody else uses, volumes listed
 * nowhere) are in `familyProfile`, as a target's owner would write them in a --target-profile file.
 * The suite must pass every point with zero failures: a failure there is a bug of the suite.
 */
import type { Catalog } from "../../sim/catalog/index.ts";
import type { Conventions } from "../../sim/conventions/index.ts";
import type { TargetProfile } from "../target-facts/index.ts";

/** What a probe cannot find, stated as the target's owner would in a --target-profile file. */
export function familyProfile(c: Conventions, catalog: Catalog, accountId = "acct-alpha"): TargetProfile {
  const profile: Record<string, unknown> = {};
  if (c.gpuPath === "/v2/hardware/gpu-types") profile["gpuCatalogPath"] = c.gpuPath;
  if (c.actions === "desired-status") profile["podActionPath"] = "PATCH /v2/pods/{podId}";
  if (c.volumes === "/v2/storage/volumes") profile["networkVolumes"] = { path: c.volumes };
  if (c.volumes === "unlisted") {
    const ids = catalog.networkVolumes.filter((v) => v.accountId === accountId).map((v) => ({ id: v.id, dataCenterId: v.dataCenterId }));
    profile["networkVolumes"] = { ids };
  }
  return profile as TargetProfile;
}

export interface FamilyTarget {
  readonly conventions: Conventions;
  readonly rest: string;
  readonly serverless: string;
  readonly keys: { readonly api?: string; readonly restricted?: string; readonly other?: string };
  /** What a probe cannot find: pass as `conform({targetProfileFacts})` or write to a --target-profile file. */
  readonly profile: TargetProfile;
  stop(): Promise<void>;
}
