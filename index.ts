// The library API: the union of each folder's public surface, as the CLI uses it.
export * from "./sim/core/index.ts";
export * from "./sim/catalog/index.ts";
export { Platform, type PlatformOptions } from "./sim/domain/platform.ts";
export { PlatformApi } from "./sim/api/platform-api.ts";
export { operations } from "./sim/api/operations.ts";
export { routes, matchRoute } from "./sim/api/routes.ts";
export { openApiDocument } from "./sim/api/openapi.ts";
export { rules, ruleById, acceptedStatuses, statusAccepted } from "./sim/api/rules/index.ts";
export type { Rule, RuleId } from "./sim/api/rules/index.ts";
export { createValidator, allSchemas } from "./sim/api/schemas/index.ts";
export type { ApiRequest, ApiResponse, ApiOutcome } from "./sim/api/types.ts";
export { startEmulator, createDefaultBackend } from "./sim/http/index.ts";
export type { EmulatorOptions, EmulatorBackend } from "./sim/http/index.ts";
export { PlatformBackend } from "./sim/http/platform-backend.ts";
export { simulate, formatSummary } from "./sim/plan/simulate.ts";
export type { SimulationSummary, SimulateOptions } from "./sim/plan/simulate.ts";
export { loadScenario, parseScenario } from "./sim/plan/scenario.ts";
export { conform } from "./conformance/conform.ts";
// Registers every conformance check, so that the library's conform() judges what `cpsim conform` does.
import "./conformance/checks/index.ts";
export { getHandler, handlers } from "./sim/domain/handlers/index.ts";
export { parseArgs, renderHelp, UsageError } from "./sim/cli/args.ts";
export type { CommandSpec, FlagSpec, CommandModule, CliIo } from "./sim/cli/args.ts";
