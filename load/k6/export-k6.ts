/** `--export-k6 DIR`: DIR/scripts/<scenario>.js, DIR/testrun.yaml (k6-operator) and DIR/README.md (the ConfigMap recipe). */
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { packageVersion } from "../../sim/package-root.ts";
import type { Scenario } from "../scenario.ts";
import { configMapRecipe, testRunManifest } from "./k6-operator.ts";
import { k6ScriptFor } from "./k6-script.ts";

export interface ExportK6Options {
  readonly target?: string;
  readonly serverlessUrl?: string;
  readonly endpoint: string;
  readonly durationS?: number;
  readonly rate?: number;
  readonly seed: number;
}

export async function exportK6(scenarios: readonly Scenario[], dir: string, o: ExportK6Options): Promise<string[]> {
  const out = resolve(dir);
  await mkdir(join(out, "scripts"), { recursive: true });
  const files: string[] = [];
  const v = packageVersion();
  for (const s of scenarios) {
    const file = join(out, "scripts", `${s.name}.js`);
    await writeFile(file, k6ScriptFor(s, { ...o, version: v }), "utf8");
    files.push(file);
  }
  const manifest = join(out, "testrun.yaml");
  await writeFile(manifest, testRunManifest(scenarios, o), "utf8");
  const recipe = join(out, "README.md");
  await writeFile(recipe, configMapRecipe(dir), "utf8");
  files.push(manifest, recipe);
  return files;
}
