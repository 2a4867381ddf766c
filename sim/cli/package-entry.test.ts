import t from "tap";
import { readFileSync } from "node:fs";
import { packagePath } from "../package-root.ts";

t.test("the package entry exposes the library API the CLI uses", async (t) => {
  const pkg = JSON.parse(readFileSync(packagePath("package.json"), "utf8"));
  // Users import the build: JavaScript with its declarations (the pack test installs and imports it).
  t.same(pkg.exports["."], { types: "./dist/index.d.ts", default: "./dist/index.js" });
  // The same entry for tools that read no exports map (TypeScript's moduleResolution node10, older bundlers).
  t.same({ main: pkg.main, types: pkg.types }, { main: pkg.exports["."].default, types: pkg.exports["."].types });
  const api = await import("../../index.ts");
  for (const name of ["Engine", "Rng", "loadCatalog", "Platform", "PlatformApi", "startEmulator", "simulate", "conform", "startProxy", "PassiveJudge", "load", "exportK6", "createValidator", "openApiDocument"]) {
    t.type((api as Record<string, unknown>)[name], "function", name);
  }
  t.ok(api.rules.length > 100, "the rule catalog");
  const platform = new api.Platform({ seed: 1, catalog: api.loadCatalog() });
  platform.advanceTo(api.seconds(10));
  t.equal(platform.now, 10_000_000);
});
