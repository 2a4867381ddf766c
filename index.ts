// The library API: the union of each folder's public surface.
export { parseArgs, renderHelp, UsageError } from "./sim/cli/args.ts";
export type { CommandSpec, FlagSpec, CommandModule, CliIo } from "./sim/cli/args.ts";
