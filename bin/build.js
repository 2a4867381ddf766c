#!/usr/bin/env node
// npm run build: compiles the TypeScript sources to dist/ (JavaScript, declarations, source maps),
// copies the .mjs modules and the .py files (the Python handler runner) tsc leaves alone, removes outputs whose source is gone, and records
// the build in dist/.build-stamp.json. With --if-stale it does nothing when dist/ is current
// (the test runner's `before` step, so tests never run a stale build).
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { distDir, root, scanSources, staleReason, stampFile } from "./build-state.js";

const ifStale = process.argv.includes("--if-stale");
if (ifStale) {
  const reason = staleReason();
  if (reason === null) process.exit(0);
  process.stderr.write(`build: ${reason}; compiling to dist/\n`);
}

const startedAt = Date.now();
// The sources as they are now; a file saved while tsc runs makes the next check rebuild.
const { files } = scanSources();
let tsc;
try {
  tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
} catch {
  // `npm ci --omit=dev` still runs prepare: without TypeScript, keep whatever dist/ there is.
  process.stderr.write("build: typescript is not installed (dev dependencies omitted?); dist/ left as it is\n");
  process.exit(existsSync(join(distDir, "index.js")) ? 0 : 1);
}
const result = spawnSync(process.execPath, [tsc, "-p", join(root, "bin", "tsconfig.build.json")], { stdio: "inherit" });
if (result.status !== 0) {
  process.stderr.write("build: tsc reported errors (above); dist/ is not current\n");
  process.exit(result.status ?? 1);
}

const wanted = new Set();
for (const file of files) {
  if (file.endsWith(".mjs") || file.endsWith(".py")) {
    mkdirSync(dirname(join(distDir, file)), { recursive: true });
    copyFileSync(join(root, file), join(distDir, file));
    wanted.add(file);
  } else {
    const base = file.slice(0, -".ts".length);
    for (const ext of [".js", ".js.map", ".d.ts"]) wanted.add(base + ext);
  }
}

// Outputs of deleted or renamed sources would otherwise still run as tests.
let removed = 0;
const prune = (rel) => {
  for (const entry of readdirSync(join(distDir, rel), { withFileTypes: true })) {
    const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) prune(path);
    else if (!entry.name.startsWith(".") && !wanted.has(path)) {
      rmSync(join(distDir, path));
      removed++;
    }
  }
};
prune("");

writeFileSync(stampFile, JSON.stringify({ builtAt: startedAt, files }) + "\n");
if (ifStale || removed > 0) {
  process.stderr.write(`build: dist/ current in ${((Date.now() - startedAt) / 1000).toFixed(1)} s${removed ? `, ${removed} stale outputs removed` : ""}\n`);
}
