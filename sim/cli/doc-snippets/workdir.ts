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

export function makeWorkdir(packageRoot: string): Workdir {
  const base = mkdtempSync(join(tmpdir(), "cpsim-doc-snippet-"));
  const dir = join(base, "work");
  const tmp = join(base, "tmp");
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  mkdirSync(tmp);
  symlinkSync(packageRoot, join(dir, "node_modules", "cpsim"));
  symlinkSync(join("..", "cpsim", "bin", "cpsim.js"), join(dir, "node_modules", ".bin", "cpsim"));
  symlinkSync(join(packageRoot, "fixtures"), join(dir, "fixtures"));
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ private: true })}\n`);
  return {
    dir,
    tmp,
    strays: () => readdirSync(dir).filter((f) => !scaffold.has(f)),
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}
