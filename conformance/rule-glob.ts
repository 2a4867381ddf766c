/**
 * Rule selection by glob (picomatch): `*` matches any run of characters (rule ids have no `/`, so
 * `pods.*` takes every pod rule at any depth), `?` one character; a list is comma-separated.
 * `--only` keeps the rules any of its globs match, `--skip` then drops those any of its globs match.
 */
import picomatch from "picomatch";

const matchers = new Map<string, (id: string) => boolean>();

function matcherOf(glob: string): (id: string) => boolean {
  let m = matchers.get(glob);
  if (m === undefined) {
    m = picomatch(glob, { dot: true });
    matchers.set(glob, m);
  }
  return m;
}

export function matchesGlob(id: string, glob: string): boolean {
  return matcherOf(glob.trim())(id);
}

/** Splits repeated and comma-separated glob arguments into single globs. */
export function splitGlobs(values: readonly string[]): string[] {
  return values.flatMap((v) => v.split(",")).map((g) => g.trim()).filter(Boolean);
}

export function selectRules(ids: readonly string[], only: readonly string[], skip: readonly string[]): string[] {
  return ids.filter((id) => (only.length === 0 || only.some((g) => matchesGlob(id, g))) && !skip.some((g) => matchesGlob(id, g)));
}
