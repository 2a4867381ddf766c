/**
 * The backend `startEmulator` and `cpsim serve` use when none is given: the seeded platform
 * model answered through sim/api; under a point of the open-choice space, on the catalog that
 * point pairs (its GPU types' clouds, its flavors' vCPU counts), with the model options it sets
 * (its rate-limit windows).
 */
import { loadCatalog } from "../catalog/index.ts";
import { catalogUnder } from "../conventions/catalog.ts";
import type { Conventions } from "../conventions/dimensions.ts";
import { modelUnder } from "../conventions/model-options.ts";
import type { BackendFactory } from "./backend.ts";
import { PlatformBackend } from "./platform-backend.ts";

export const createDefaultBackend: BackendFactory = (options) => new PlatformBackend(options);

/** The default backend on the catalog `conventions` serve. */
export const conventionsDefaultBackend =
  (conventions: Conventions): BackendFactory =>
  (options) =>
    new PlatformBackend({ ...options, catalog: catalogUnder(conventions, loadCatalog(options.fixtures)), model: modelUnder(conventions) });
