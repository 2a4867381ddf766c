// Loaded by tap into every test process (package.json "tap"."node-arg"). `npm test` builds, then
// tap runs the compiled tests in dist/ with plain node; a test named by its .ts source
// (`npx tap sim/x.test.ts`) runs through tsx instead.
// A compiled test refuses to run against a build older than the sources (a bail-out naming the
// fix; `npm test` has just built, and says so with CPSIM_DIST_CHECKED=1 so that an edit saved
// during its run does not stop it), and reports its source file as the main script: tap names snapshot files
// (tap-snapshots/<main script>.test.cjs) and fixture directories after it, so both runs share them.
import { existsSync } from "node:fs";
import { relative, resolve } from "node:path";
import { staleReason } from "./build-state.js";

// Property tests that name no seed of their own run on one fixed seed, so that a run of the suite
// is repeatable (fast-check prints the seed of any failure); CPSIM_TEST_SEED=N picks another,
// CPSIM_TEST_SEED=random lets fast-check draw one per run.
const testSeed = process.env.CPSIM_TEST_SEED ?? "20261123";
if (testSeed !== "random") {
  const fc = await import("fast-check");
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: Number(testSeed) });
}

const main = process.argv[1];
if (main !== undefined) {
  const path = resolve(main);
  const fromDist = relative(resolve("dist"), path);
  if (path.endsWith(".ts")) {
    const { register } = await import("tsx/esm/api");
    register();
  } else if (!fromDist.startsWith("..") && fromDist.endsWith(".test.js")) {
    const reason = process.env.CPSIM_DIST_CHECKED === "1" ? null : staleReason();
    if (reason !== null) {
      process.stdout.write(`TAP version 14\nBail out! dist/ is not current (${reason}): run \`npm run build\`, or \`npm test\`, which builds first\n`);
      process.exit(1);
    }
    const source = resolve(fromDist.slice(0, -".js".length) + ".ts");
    if (existsSync(source)) process.argv[1] = source;
  }
}
