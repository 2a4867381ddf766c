/**
 * One documentation snippet checked as a user pasting it would run it: in a fresh working
 * directory (workdir.ts: a clone, or a project that installed cpsim), with the variables README.md's
 * "Check my service" exports set to a stand-in emulator, bounded by its marker's timeout. It must
 * exit as its marker says, print what its marker expects, leave no process running and write
 * nothing into its working directory. Used by the snippet tests (snippet-tests.ts) and by
 * `npm run doc-snippets` (run-all.ts), so both judge a snippet the same way. Markers: extract.ts.
 */
import { spawnSync } from "node:child_process";
import { startEmulator } from "../../http/index.ts";
import { packageRoot } from "../../package-root.ts";
import { readSnippets, scriptLanguages, shellLanguages, type Snippet } from "./extract.ts";
import { runSnippet, type SnippetRun } from "./run-snippet.ts";
import { makeWorkdir } from "./workdir.ts";

/**
 * The environment of a user's shell: none of this run's npm, tap or cpsim variables, but
 * CPSIM_DIST_CHECKED: `npm test` built dist/ before it started, so `npx cpsim` runs that build
 * even when a source file is edited while the tests run (as a user's fresh clone would).
 */
function userEnv(tmp: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith("npm_") && !k.startsWith("TAP") && !k.startsWith("_TAPJS") && !k.startsWith("CPSIM_") && k !== "NODE_OPTIONS"),
  );
  const checked = process.env.CPSIM_DIST_CHECKED === "1" ? { CPSIM_DIST_CHECKED: "1" } : {};
  return { ...env, ...checked, TMPDIR: tmp };
}

/**
 * An emulator standing in for "your service", and the variables the README tells a user to export
 * for it ("Check my service"), which every snippet runs with: a user who followed the README has
 * them set when they paste any later snippet.
 */
export async function standInTarget(): Promise<{ env: Record<string, string>; close: () => Promise<void> }> {
  const emulator = await startEmulator({ clock: "manual", seed: 1 });
  const full = emulator.apiKeys.find((k) => k.access === "full");
  const read = emulator.apiKeys.find((k) => k.access === "read-only" && k.account === full?.account);
  const other = emulator.apiKeys.find((k) => k.access === "full" && k.account !== full?.account);
  if (!full || !read || !other) throw new Error("the fixtures' accounts lack a full, a read-only or a second account's key");
  return {
    env: { TARGET: emulator.baseUrl, CPSIM_API_KEY: full.key, CPSIM_RESTRICTED_API_KEY: read.key, CPSIM_OTHER_API_KEY: other.key },
    close: () => emulator.close(),
  };
}

/** Whether a program runs from PATH (`PROGRAM --version` exits 0). */
function onPath(program: string): boolean {
  const probe = spawnSync(program, ["--version"], { stdio: "ignore" });
  return probe.error === undefined && probe.status === 0;
}

/** A shell or script block marked to run. */
export function runnable(s: Snippet): boolean {
  return typeof s.marker === "object" && s.marker !== null && s.marker.kind === "run" && (shellLanguages.has(s.lang) || scriptLanguages.has(s.lang));
}

/** The variables README.md's own snippets export (`export NAME=...`), in its order. */
export function readmeExports(root: string): string[] {
  return readSnippets(root, "README.md")
    .filter((s) => shellLanguages.has(s.lang))
    .flatMap((s) => [...s.code.matchAll(/^export (\w+)=/gm)].map((m) => m[1]!));
}

/** Why a runnable snippet is not run here (a program its marker needs is not on PATH), or null. */
export function missingPrograms(s: Snippet): string | null {
  const marker = s.marker as Extract<Snippet["marker"], { kind: "run" }>;
  const missing = marker.needs.filter((p) => !onPath(p));
  return missing.length > 0 ? `${missing.join(" and ")} not on PATH` : null;
}

export interface SnippetCheck {
  run: SnippetRun;
  /** Files the snippet left in its working directory. */
  strays: string[];
  seconds: number;
  /** What is wrong, one line each; empty when the snippet passed. */
  problems: string[];
}

/** Runs a runnable snippet (see runnable) and judges it. `installed`: as in a project that installed cpsim. */
export async function checkSnippet(s: Snippet, options: { readonly installed?: boolean } = {}): Promise<SnippetCheck> {
  const marker = s.marker as Extract<Snippet["marker"], { kind: "run" }>;
  const work = makeWorkdir(packageRoot, { clone: !options.installed });
  // Every snippet, not only a `target` one: the README's exports are set in the user's shell.
  const target = await standInTarget();
  const started = performance.now();
  try {
    const run = await runSnippet(shellLanguages.has(s.lang) ? "shell" : "script", s.code, {
      cwd: work.dir,
      env: { ...userEnv(work.tmp), ...target.env },
      timeoutMs: marker.timeoutS * 1000,
    });
    const seconds = (performance.now() - started) / 1000;
    const output = `${run.stdout}\n${run.stderr}`;
    const strays = work.strays();
    const problems: string[] = [];
    if (run.timedOut) problems.push(`did not end within its ${marker.timeoutS} s bound`);
    if (run.code === null || !marker.exit.includes(run.code)) {
      problems.push(`exit code ${run.code}, expected ${marker.exit.join(" or ")}; stdout: ${run.stdout.slice(-2000)}\nstderr: ${run.stderr.slice(-3000)}`);
    }
    for (const text of marker.expect) if (!output.includes(text)) problems.push(`does not print ${JSON.stringify(text)}`);
    if (run.leftovers.length > 0) problems.push(`left processes running: ${run.leftovers.join("; ")}`);
    if (strays.length > 0) problems.push(`wrote into its working directory (the clone): ${strays.join(", ")}`);
    return { run, strays, seconds, problems };
  } finally {
    await target.close();
    work.remove();
  }
}
