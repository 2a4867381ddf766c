// The public surface of load/: scenarios as data, the library function, k6 export.
export { load, type LoadDeps, type LoadIo, type LoadResult } from "./load.ts";
export { defaultOptions, LoadConfigError, type LoadEngine, type LoadOptions } from "./options.ts";
export { run, spec, optionsFromFlags } from "./cli.ts";
export { builtinScenarios } from "./scenarios/index.ts";
export { ScenarioSchema, type BodySpec, type CheckSpec, type RequestSpec, type Scenario, type SetupSpec } from "./scenario.ts";
export { loadScenarioFile, validateScenario, ScenarioFileError } from "./scenario-file.ts";
export { judgeThresholds, parseThreshold, ThresholdSyntaxError, type MetricLookup, type ThresholdResult } from "./thresholds.ts";
export { compareWithBaseline, readBaseline, baselineFigures, type BaselineFigures } from "./baseline.ts";
export { runScenario, type ScenarioRunOptions } from "./run-scenario.ts";
export { runOpen, LATE_TOLERANCE_MS } from "./open-model.ts";
export { runClosed } from "./closed-model.ts";
export { ScenarioStats } from "./scenario-stats.ts";
export { exportK6, type ExportK6Options } from "./k6/export-k6.ts";
export { k6ScriptFor } from "./k6/k6-script.ts";
export { findK6, K6_INSTALL_HINT, resultFromK6Summary } from "./k6/run-k6.ts";
export { startChildEmulator, type ChildEmulator } from "./emulator-child.ts";
export type { LoadTarget } from "./target.ts";
