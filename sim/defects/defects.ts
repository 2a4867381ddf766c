/**
 * The catalog of defects: every documented way `cpsim serve --defect NAME` can break the
 * emulator, each tied to the one rule of the spec it breaks. Checked once at load: names are
 * unique and every rule id exists.
 */
import picomatch from "picomatch";
import { type CatalogRule, ruleById } from "../api/rules/index.ts";
import { apiDefects } from "./defects-api.ts";
import { jobDefects } from "./defects-jobs.ts";
import { podDefects } from "./defects-pods.ts";
import { refusalDefects } from "./defects-refusals.ts";
import type { Defect } from "./defect.ts";

export const defects: readonly Defect[] = [...podDefects, ...refusalDefects, ...jobDefects, ...apiDefects];

const byName = new Map<string, Defect>();
for (const d of defects) {
  if (byName.has(d.name)) throw new Error(`defect ${d.name} is defined twice`);
  if (!ruleById(d.rule)) throw new Error(`defect ${d.name} breaks rule ${d.rule}, which the catalog does not have`);
  byName.set(d.name, d);
}

export function defectByName(name: string): Defect | undefined {
  return byName.get(name);
}

/** The rule a defect breaks, with its spec sentence. */
export function ruleOf(defect: Defect): CatalogRule {
  return ruleById(defect.rule)!;
}

export class UnknownDefectError extends Error {
  override readonly name = "UnknownDefectError";
  readonly code = "CPSIM_ERR_UNKNOWN_DEFECT";
}

/** Defects by exact name; an unknown name throws, naming the closest ones. */
export function defectsNamed(names: readonly string[]): Defect[] {
  return names.map((name) => {
    const d = byName.get(name);
    if (d) return d;
    const near = defects.filter((x) => x.name.includes(name) || name.includes(x.name.split("-")[0])).slice(0, 3).map((x) => x.name);
    throw new UnknownDefectError(`unknown defect "${name}"${near.length ? `; did you mean ${near.join(", ")}?` : ""}; list them with cpsim serve --list-defects`);
  });
}

/** Defects whose name (or area, or rule id) matches one of the globs; every defect when none is given. */
export function selectDefects(globs: readonly string[]): Defect[] {
  if (globs.length === 0) return [...defects];
  const match = picomatch(globs as string[]);
  return defects.filter((d) => match(d.name) || match(d.rule) || match(d.area));
}

/** `cpsim serve --list-defects`: name, area, rule and its sentence, one defect per block. */
export function renderDefectList(list: readonly Defect[] = defects): string {
  const lines: string[] = [];
  for (const d of list) {
    const rule = ruleOf(d);
    lines.push(`${d.name}  [${d.area}]  breaks ${d.rule}`, `    does:   ${d.does}`, `    spec:   ${rule.spec}`, "");
  }
  lines.push(`${list.length} defects`);
  return `${lines.join("\n")}\n`;
}

export function defectListJson(list: readonly Defect[] = defects): object[] {
  return list.map((d) => ({ name: d.name, area: d.area, rule: d.rule, does: d.does, spec: ruleOf(d).spec, section: ruleOf(d).section }));
}
