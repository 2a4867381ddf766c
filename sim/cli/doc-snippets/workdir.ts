/**
 * The working directory a documentation snippet runs in: a fresh temporary folder laid out as a
 * clone is for what snippets read (`npx cpsim`, `import "cpsim"`, `fixtures/`), linked to this
 * package, so that whatever a snippet writes into its working directory shows (it would have
 * written into the clone) instead of being lost among the clone's files.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Workdir {
  /** The working directory. */
  dir: string;
  /** TMPDIR for the snippet (mktemp's folders land here and go with the workdir). */
  tmp: string;
  /** What the snippet left in the working directory beyond the scaffold. */
  strays(): string[];
  remove(): void;
}

const scaffold = new Set(["node_modules", "fixtures", "package.json"]);

/** `clone: false`: a project that installed cpsim (node_modules/cpsim only), without the clone's fixtures/. */
export function makeWorkdir(packageRoot: string, options: { readonly clone?: boolean } = {}): Workdir {
  const base = mkdtempSync(join(tmpdir(), "cpsim-doc-snippet-"));
  const dir = join(base, "work");
  const tmp = join(base, "tmp");
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  mkdirSync(tmp);
  symlinkSync(packageRoot, join(dir, "node_modules", "cpsim"));
  symlinkSync(join("..", "cpsim", "bin", "cpsim.js"), join(dir, "node_modules", ".bin", "cpsim"));
  if (options.clone !== false) symlinkSync(join(packageRoot, "fixtures"), join(dir, "fixtures"));
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ private: true })}\n`);
  return {
    dir,
    tmp,
    strays: () => readdirSync(dir).filter((f) => !scaffold.has(f)),
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}
