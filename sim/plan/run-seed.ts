/** One seed of one scenario point: build the model, run it to the horizon, collect the figures. */
import { hours, minutes } from "../core/index.ts";
import { loadCatalog, type Catalog } from "../catalog/index.ts";
import { buildModel } from "./build-model.ts";
import { PlanCollector } from "./collector.ts";
import type { LoadedScenario } from "./scenario.ts";
import type { SeedResult } from "./seed-result.ts";

export interface RunSeedOptions {
  readonly point?: number;
  readonly seed: number;
  readonly hours?: number;
  readonly catalog?: Catalog;
}

export function runSeed(loaded: LoadedScenario, options: RunSeedOptions): SeedResult {
  const catalog = options.catalog ?? loadCatalog();
  const endUs = Math.round(hours(options.hours ?? loaded.scenario.hours));
  const warmupUs = Math.min(endUs, Math.round(minutes(loaded.scenario.warmupMinutes ?? 0)));
  const endpointCount = catalog.endpoints.length + (loaded.scenario.endpoints?.length ?? 0);
  const collector = new PlanCollector(warmupUs, endUs, endpointCount);
  const model = buildModel(loaded, { seed: options.seed, hours: options.hours, catalog, observer: collector });
  collector.bind(model.endpoints, model.priceOf);
  model.platform.advanceTo(model.endUs);
  return {
    point: options.point ?? 0,
    seed: options.seed,
    seriesStepS: collector.stepUs / 1_000_000,
    jobsSubmitted: model.counters.jobsSubmitted,
    podStockOuts: model.counters.podStockOuts,
    endpoints: collector.finish(model),
  };
}
