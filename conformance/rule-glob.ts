/**
 * Rule selection by glob: `*` matches any run of characters (dots included, so `pods.*` takes
 * every pod rule at any depth), `?` one character; a list is comma-separated. `--only` keeps
 * the rules any of its globs match, `--skip` then drops those any of its globs match.
 */

export function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${body}$`);
}

export function matchesGlob(id: string, glob: string): boolean {
  return globToRegExp(glob.trim()).test(id);
}

/** Splits repeated and comma-separated glob arguments into single globs. */
export function splitGlobs(values: readonly string[]): string[] {
  return values.flatMap((v) => v.split(",")).map((g) => g.trim()).filter(Boolean);
}

export function selectRules(ids: readonly string[], only: readonly string[], skip: readonly string[]): string[] {
  return ids.filter((id) => (only.length === 0 || only.some((g) => matchesGlob(id, g))) && !skip.some((g) => matchesGlob(id, g)));
}
