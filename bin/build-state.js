// Whether dist/ holds a build of the current sources: no source file is newer than the last
// successful build and none was added or removed since. Plain JavaScript, so that bin/cpsim.js
// and the test runner can ask before anything is compiled.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));
export const distDir = join(root, "dist");
export const stampFile = join(distDir, ".build-stamp.json");
/** What tsconfig.json compiles (its "include"), where the .mjs and .py files copied beside the output live too. */
export const SOURCE_ROOTS = (() => {
  try {
    const include = JSON.parse(readFileSync(join(root, "tsconfig.json"), "utf8")).include;
    if (Array.isArray(include) && include.every((p) => typeof p === "string" && !/[*?]/.test(p))) return include;
  } catch {
    // tsconfig.json with comments, or unreadable: the folders it has always listed
  }
  return ["index.ts", "sim", "conformance", "load", "reports", "fixtures", "bin"];
})();
const CONFIGS = ["tsconfig.json", "bin/tsconfig.build.json"];

const isSource = (name) => (name.endsWith(".ts") && !name.endsWith(".d.ts")) || name.endsWith(".mjs") || name.endsWith(".py");

/** Every source file (relative path, sorted) and the newest modification time among them and the configs. */
export function scanSources() {
  const files = [];
  let newest = 0;
  const visit = (rel) => {
    let st;
    try {
      st = statSync(join(root, rel));
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
        if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
        if (entry.isDirectory() || isSource(entry.name)) visit(join(rel, entry.name));
      }
    } else if (isSource(rel)) {
      files.push(rel.split("\\").join("/"));
      newest = Math.max(newest, st.mtimeMs);
    }
  };
  for (const r of SOURCE_ROOTS) visit(r);
  for (const c of CONFIGS) {
    try {
      newest = Math.max(newest, statSync(join(root, c)).mtimeMs);
    } catch {
      // a missing config is tsc's error to report
    }
  }
  files.sort();
  return { files, newest };
}

/** Null when dist/ is current, else the reason it is not. */
export function staleReason() {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, "utf8"));
  } catch {
    return "dist/ has not been built";
  }
  const { files, newest } = scanSources();
  if (newest > stamp.builtAt) return "a source file changed since the last build";
  if (files.join("\n") !== stamp.files.join("\n")) return "source files were added or removed since the last build";
  return null;
}

/** The path of a file of the source tree relative to the root (for messages). */
export const rel = (p) => relative(root, p);
