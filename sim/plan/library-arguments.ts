/**
 * Checks of the library calls simulate() and plan() as a JavaScript caller makes them: the types
 * are only in the .d.ts files, so a wrong guess (a scenario name where an object goes, a missing
 * seed) must say what to pass instead of failing deep inside with "Cannot read properties of
 * undefined".
 */

/** A library function called with arguments it cannot take: a TypeError with the project's stable code. */
export class LibraryArgumentError extends TypeError {
  override readonly name = "LibraryArgumentError";
  readonly code = "CPSIM_ERR_ARGUMENT";
}

const SIMULATE_EXAMPLE = 'simulate({ scenario: loadScenario("default"), seed: 1, hours: 2 })';
const PLAN_EXAMPLE = 'plan({ loaded: loadScenarioFile("mmc-queue"), seed: 1, seeds: 5, workers: 2 })';

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string ${JSON.stringify(value.slice(0, 60))}`;
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fail(fn: string, message: string, example: string): never {
  throw new LibraryArgumentError(`${fn}: ${message}; for example ${example}`);
}

function integer(fn: string, example: string, name: string, value: unknown, min: number, required: boolean): void {
  if (value === undefined && !required) return;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    fail(fn, `${name} must be a whole number of at least ${min}, got ${describe(value)}`, example);
  }
}

function hours(fn: string, example: string, value: unknown): void {
  if (value !== undefined && !(typeof value === "number" && Number.isFinite(value) && value > 0)) {
    fail(fn, `hours must be a positive number of virtual hours, got ${describe(value)}`, example);
  }
}

function callback(fn: string, example: string, name: string, value: unknown): void {
  if (value !== undefined && typeof value !== "function") fail(fn, `${name} must be a function, got ${describe(value)}`, example);
}

function scenarioObject(fn: string, example: string, name: string, value: unknown): void {
  if (typeof value === "string") fail(fn, `${name} is a scenario object, not a name: load it with loadScenario(${JSON.stringify(value.slice(0, 60))})`, example);
  if (!isObject(value) || typeof value.name !== "string") fail(fn, `${name} must be a scenario (loadScenario(name) or parseScenario(json)), got ${describe(value)}`, example);
}

/** simulate(options): options { scenario, seed, hours?, loaded?, catalog?, onProgress? }. */
export function checkSimulateArguments(options: unknown): void {
  const fn = "simulate(options)";
  const ex = SIMULATE_EXAMPLE;
  if (!isObject(options)) fail(fn, `options must be an object { scenario, seed, hours? }, got ${describe(options)}`, ex);
  // A LoadedScenario (loadScenarioFile) where the scenario goes: say which part to pass.
  if (isObject(options.scenario) && isObject(options.scenario.scenario)) {
    fail(fn, "scenario is the loaded file, not its scenario: pass { scenario: loaded.scenario, loaded }", ex);
  }
  scenarioObject(fn, ex, "scenario", options.scenario);
  integer(fn, ex, "seed", options.seed, 0, true);
  hours(fn, ex, options.hours);
  callback(fn, ex, "onProgress", options.onProgress);
  if (options.loaded !== undefined && !(isObject(options.loaded) && isObject(options.loaded.scenario))) {
    fail(fn, `loaded must be what loadScenarioFile(name) returns, got ${describe(options.loaded)}`, ex);
  }
}

/** plan(options), planShard(options, ...): options { loaded, seed, seeds, workers, hours?, sweep?, find?, onProgress? }. */
export function checkPlanArguments(options: unknown, fn = "plan(options)"): void {
  const ex = PLAN_EXAMPLE;
  if (!isObject(options)) fail(fn, `options must be an object { loaded, seed, seeds, workers }, got ${describe(options)}`, ex);
  if (options.loaded === undefined && options.scenario !== undefined) {
    fail(fn, "plan takes loaded (loadScenarioFile(name): the scenario with its traces), not scenario", ex);
  }
  if (typeof options.loaded === "string") fail(fn, `loaded is a loaded scenario, not a name: pass loadScenarioFile(${JSON.stringify(options.loaded.slice(0, 60))})`, ex);
  if (!isObject(options.loaded) || !isObject(options.loaded.scenario) || !isObject(options.loaded.traces)) {
    fail(fn, `loaded must be what loadScenarioFile(name) returns ({ scenario, label, traces }), got ${describe(options.loaded)}`, ex);
  }
  scenarioObject(fn, ex, "loaded.scenario", options.loaded.scenario);
  integer(fn, ex, "seed", options.seed, 0, true);
  integer(fn, ex, "seeds", options.seeds, 1, true);
  integer(fn, ex, "workers", options.workers, 1, true);
  hours(fn, ex, options.hours);
  callback(fn, ex, "onProgress", options.onProgress);
  if (options.sweep !== undefined && !(Array.isArray(options.sweep) && options.sweep.every((s) => typeof s === "string"))) {
    fail(fn, `sweep must be an array of "PARAM=v1,v2" strings, got ${describe(options.sweep)}`, ex);
  }
  if (options.find !== undefined && !(isObject(options.find) && typeof options.find.param === "string" && typeof options.find.slo === "string")) {
    fail(fn, `find must be { param, slo, range? } (e.g. { param: "workers", slo: "p99 delay < 2s" }), got ${describe(options.find)}`, ex);
  }
}
