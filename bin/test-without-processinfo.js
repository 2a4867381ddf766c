#!/usr/bin/env node
// npm test's runner: tap, with the same arguments and package.json config, but without
// @tapjs/processinfo in the test processes. tap 21 starts every test file with
// `--import=@tapjs/processinfo/import` (and, through NODE_OPTIONS, every process a test starts):
// it records process trees for coverage and `tap --changed`, which this suite does not use
// (coverage is disabled), at a cost of about 0.3 s of CPU per process on Node 20 (a module-loader
// thread, the source maps of every loaded file read at exit), a minute or more over the suite.
// It is not a plugin, so tap's config cannot remove it ("plugin": ["!..."] only takes plugins
// out); this wrapper takes it out of the arguments and NODE_OPTIONS of the processes tap's runner
// spawns, then runs tap's own bin. `npx tap` runs the same tests with it. Not published.
import childProcess from "node:child_process";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

const processInfoLoader = /^--(import|loader|experimental-loader)=\S*[\\/]@tapjs[\\/]processinfo[\\/]/;
// In NODE_OPTIONS it stands quoted: "--import=file:///…/@tapjs/processinfo/dist/esm/import.mjs".
const processInfoOption = /"?--(import|loader|experimental-loader)=[^\s"]*[\\/]@tapjs[\\/]processinfo[\\/][^\s"]*"?/g;
const withoutLoader = (args) => args.filter((a) => typeof a !== "string" || !processInfoLoader.test(a));
const withoutLoaderEnv = (options) => {
  const nodeOptions = options?.env?.NODE_OPTIONS;
  if (typeof nodeOptions !== "string" || !nodeOptions.match(processInfoOption)) return options;
  return { ...options, env: { ...options.env, NODE_OPTIONS: nodeOptions.replace(processInfoOption, "").trim() } };
};

const spawn = childProcess.spawn;
childProcess.spawn = function spawnWithoutProcessInfo(command, args, options) {
  if (!Array.isArray(args)) return spawn.call(this, command, withoutLoaderEnv(args));
  return spawn.call(this, command, withoutLoader(args), withoutLoaderEnv(options));
};
// tap's modules import { spawn } from "node:child_process": make their binding see the wrapper.
syncBuiltinESMExports();

const tapPackage = createRequire(import.meta.url).resolve("tap/package.json");
await import(pathToFileURL(join(dirname(tapPackage), "dist", "esm", "run.mjs")).href);
