/**
 * `cpsim serve --scenario FILE`: the emulator's model with a planning scenario's endpoints applied
 * (workers, scaler, cold starts, run-time distributions), its GPU supply and its outside demand, so
 * that a real-time emulator can stand in for an endpoint whose settings the client does not know
 * (the calibrator's tests measure one). The scenario's workloads are not run: clients send the jobs.
 */
import { minutes } from "../core/index.ts";
import { loadCatalog } from "../catalog/index.ts";
import { getHandler } from "../domain/handlers/index.ts";
import { scenarioCatalog } from "../plan/build-model.ts";
import { loadScenarioFile, type LoadedScenario } from "../plan/scenario.ts";
import type { BackendFactory } from "./backend.ts";
import { PlatformBackend } from "./platform-backend.ts";

/** A backend factory serving `scenario` (a path, a bundled name, or a loaded scenario). */
export function scenarioBackend(scenario: string | LoadedScenario): BackendFactory {
  const loaded = typeof scenario === "string" ? loadScenarioFile(scenario) : scenario;
  return (o) => {
    const { catalog, handlers } = scenarioCatalog(loaded, loadCatalog(o.fixtures));
    const s = loaded.scenario;
    return new PlatformBackend({
      ...o,
      catalog,
      model: {
        stock: {
          outsideIntensity: s.outsideDemand?.intensity ?? 0.5,
          ...(s.outsideDemand?.meanHoldMinutes !== undefined ? { outsideMeanHold: Math.round(minutes(s.outsideDemand.meanHoldMinutes)) } : {}),
        },
        serverless: { resolveHandler: (name) => handlers.get(name) ?? getHandler(name) },
      },
    });
  };
}
