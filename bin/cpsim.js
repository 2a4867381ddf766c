#!/usr/bin/env node
// The executable shim: load TypeScript through tsx, then hand argv to the command table.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../sim/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
