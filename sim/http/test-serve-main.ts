/**
 * TEST ENTRY: `cpsim serve` over the TEST backend, as a process, so that tests can spawn it and
 * send it signals before the platform model is wired in. It runs through the real dispatcher,
 * with `serve` bound to the test backend. Usage:
 *   node --import tsx sim/http/test-serve-main.ts [serve flags]
 */
import { processIo } from "../cli/args.ts";
import { commands, main } from "../cli/main.ts";
import { createServeCommand } from "./cli.ts";
import { createTestBackend } from "./test-backend.ts";

const command = createServeCommand({ createBackend: createTestBackend });
commands.serve = { summary: command.spec.summary, load: async () => command };
process.exitCode = await main(["serve", ...process.argv.slice(2)], processIo);
