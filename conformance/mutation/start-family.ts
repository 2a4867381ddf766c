/**
 * Starts one target family (target-family.ts: a point of sim/conventions/) on loopback: the emulator with the embedded
 * catalog and a manual clock (the control API moves time, so a run is quick), its backend behind
 * the family's layer, and the named defects switched on underneath (they are the platform's
 * defects, so they sit under the conventions, as they would in that implementation).
 */
import { defectiveBackend, defectsNamed } from "../../sim/defects/index.ts";
import { startEmulator } from "../../sim/http/index.ts";
import { PlatformBackend } from "../../sim/http/platform-backend.ts";
import { embeddedCatalog, embeddedKeys } from "../embedded.ts";
import { catalogUnder, conventionsBackend, drawConventions, modelUnder, type Conventions } from "../../sim/conventions/index.ts";
import { familyProfile, type FamilyTarget } from "./target-family.ts";

export async function startFamilyTarget(options: { readonly family: number | Conventions; readonly seed?: number; readonly defects?: readonly string[] }): Promise<FamilyTarget> {
  const conventions = typeof options.family === "number" ? drawConventions(options.family) : options.family;
  const catalog = catalogUnder(conventions, embeddedCatalog());
  const emulator = await startEmulator({
    host: "127.0.0.1",
    port: 0,
    seed: options.seed ?? 1,
    clock: "manual",
    control: true,
    createBackend: (o) => {
      const platform = new PlatformBackend({ ...o, catalog, model: modelUnder(conventions) });
      const volumes = catalog.networkVolumes.filter((v) => v.accountId === "acct-alpha").map((v) => v.id);
      return conventionsBackend(options.defects?.length ? defectiveBackend(platform, defectsNamed(options.defects)) : platform, conventions, volumes);
    },
  });
  return {
    conventions,
    rest: emulator.baseUrl,
    serverless: emulator.serverlessUrl,
    keys: embeddedKeys(catalog),
    profile: familyProfile(conventions, catalog),
    stop: () => emulator.close(),
  };
}
