import t from "tap";
import { readFileSync } from "node:fs";

t.test("the package entry exposes the library API the CLI uses", async (t) => {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
  t.equal(pkg.exports["."].types, "./index.ts");
  const api = await import("../../index.ts");
  for (const name of ["Engine", "Rng", "loadCatalog", "Platform", "PlatformApi", "startEmulator", "simulate", "conform", "load", "exportK6", "createValidator", "openApiDocument"]) {
    t.type((api as Record<string, unknown>)[name], "function", name);
  }
  t.ok(api.rules.length > 100, "the rule catalog");
  const platform = new api.Platform({ seed: 1, catalog: api.loadCatalog() });
  platform.advanceTo(api.seconds(10));
  t.equal(platform.now, 10_000_000);
});
