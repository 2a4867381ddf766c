/** The piscina worker's task, compiled: one suite run against an emulator with its defects. */
export { runSuite as default } from "./run-suite.ts";
