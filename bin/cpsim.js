#!/usr/bin/env node
// The executable: runs the compiled CLI in dist/. In a checkout (the TypeScript sources are beside
// it) whose build is missing or older than the sources, it runs the sources through tsx instead,
// so an edit is never answered by stale code; `npm run build` makes it fast again.
import { existsSync } from "node:fs";

let entry = "../dist/sim/cli/main.js";
// CPSIM_DIST_CHECKED=1: `npm test` has just built dist/ and its tests spawn this file.
if (process.env.CPSIM_DIST_CHECKED !== "1" && existsSync(new URL("../sim/cli/main.ts", import.meta.url))) {
  const { staleReason } = await import("./build-state.js");
  if (staleReason() !== null) {
    const { register } = await import("tsx/esm/api");
    register();
    entry = "../sim/cli/main.ts";
  }
}
const { main } = await import(entry);
process.exitCode = await main(process.argv.slice(2));
