/**
 * The package's root directory, found the same way from the sources (sim/package-root.ts) and from
 * the build (dist/sim/package-root.js): the nearest directory above this file holding cpsim's
 * package.json. Files shipped beside the code (fixtures/, package.json) are located from here.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "cpsim") return dir;
    if (dirname(dir) === dir) throw new Error(`cpsim: no package.json named "cpsim" above ${start}`);
  }
}

/** Absolute path of the package root (the directory holding package.json). */
export const packageRoot: string = findRoot(dirname(fileURLToPath(import.meta.url)));

/** Absolute path of a file or directory given relative to the package root. */
export function packagePath(...segments: string[]): string {
  return join(packageRoot, ...segments);
}

let cachedVersion: string | undefined;

/** The version in package.json. */
export function packageVersion(): string {
  cachedVersion ??= (JSON.parse(readFileSync(packagePath("package.json"), "utf8")) as { version: string }).version;
  return cachedVersion;
}

/**
 * A module beside the caller's, named without its extension: `.ts` when the caller runs from the
 * sources (through tsx), `.js` when it runs from the build in dist/. For files handed to a child
 * process or a worker, which must load the same flavour as their parent.
 */
export function siblingModule(callerUrl: string, relative: string): URL {
  return new URL(`${relative}${callerUrl.endsWith(".ts") ? ".ts" : ".js"}`, callerUrl);
}

/** The Node arguments that let a child process load `file`: tsx for TypeScript, none for JavaScript. */
export function loaderArgs(file: string): string[] {
  return file.endsWith(".ts") ? ["--import", "tsx"] : [];
}

/**
 * A worker thread's entry beside the caller's module: `NAME.js` from the build; from the sources
 * `NAME-tsx.mjs`, a small loader that registers tsx in the thread (worker threads do not inherit
 * the parent's loader) and then imports `NAME.ts`.
 */
/**
 * The node options a worker thread starts with: this process's, less those only a string given to
 * node applies to (`--input-type`, and `-e`/`--eval`/`-p`/`--print` with their code), with which
 * a worker file refuses to load (ERR_INPUT_TYPE_NOT_ALLOWED): a user's
 * `node --input-type=module -e '...'` calling mutation() or plan() would crash (#35).
 */
export function workerExecArgv(execArgv: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i]!;
    if (a.startsWith("--input-type=")) continue;
    if (a === "--input-type" || a === "-e" || a === "--eval" || a === "-p" || a === "--print" || a === "-pe") { i++; continue; }
    if (/^(--eval|--print)=/.test(a)) continue;
    out.push(a);
  }
  return out;
}

export function workerModule(callerUrl: string, name: string): URL {
  return new URL(callerUrl.endsWith(".ts") ? `./${name}-tsx.mjs` : `./${name}.js`, callerUrl);
}
