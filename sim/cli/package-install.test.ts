// The package as users get it: `npm pack`, installed from the tarball into a scratch project, used
// there with plain node (no tsx): import cpsim, start the emulator, run a short conformance run,
// require cpsim from CommonJS and import it with node -e, run the binary, and type-check a
// TypeScript consumer against the shipped declarations.
import t from "tap";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../package-root.ts";

function run(command: string, args: string[], cwd: string, timeoutMs = 240_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // Without npm_config_* and TAP variables from the test run: the scratch project is a user's.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("npm_") && !k.startsWith("TAP") && !k.startsWith("_TAPJS")));
    execFile(command, args, { cwd, env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

// npm install alone can take a minute on a busy machine, and every step after it spawns node (three
// tsc runs among them): 401 s in a clean-clone CI run at load 10, so 900 s, each step 240 s.
t.setTimeout(900_000);

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const scratch = mkdtempSync(join(tmpdir(), "cpsim-install-"));
t.teardown(() => { if (!process.env.KEEP) rmSync(scratch, { recursive: true, force: true }); });

t.test("npm pack, npm install the tarball, and use cpsim with plain node", { timeout: 900_000 }, async (t) => {
  // dist/ is current here (the test runner refuses a stale build), so pack it as it is.
  const packed = await run(npm, ["pack", "--ignore-scripts", "--json", "--pack-destination", scratch], packageRoot);
  t.equal(packed.code, 0, packed.stderr);
  const [info] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }];
  const shipped = info.files.map((f) => f.path);
  t.ok(shipped.includes("dist/index.js") && shipped.includes("dist/index.d.ts"), "the build and its declarations");
  t.ok(shipped.includes("bin/cpsim.js") && shipped.includes("LICENSE") && shipped.includes("fixtures/catalog/gpu-types.json"));
  t.same(shipped.filter((p) => /\.test\.|(^|\/)\.ci\/|^bin\/(build|build-state|test-preload|test-without-processinfo)\.js|^bin\/tsconfig|^sim\/|^conformance\/|tap-snapshots|\.tsbuildinfo|build-stamp/.test(p)), [], "no tests, sources, CI or build scripts");

  writeFileSync(join(scratch, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module" }));
  const installed = await run(npm, ["install", join(scratch, info.filename), "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], scratch);
  t.equal(installed.code, 0, `npm install: ${installed.stderr}`);
  if (installed.code !== 0) return;

  writeFileSync(
    join(scratch, "smoke.mjs"),
    `import { startEmulator, conform, rules } from "cpsim";
const emulator = await startEmulator({ clock: "manual" });
try {
  const key = emulator.apiKeys.find((k) => k.access === "full").key;
  const result = await conform({ target: emulator.baseUrl, apiKey: key, only: ["pods.create.unknown-property", "catalog.*"], seed: 7, runs: 3, minCoverage: 0, reportDir: "reports" });
  console.log(JSON.stringify({ exitCode: result.exitCode, rules: rules.length, judged: result.report.rules.length }));
} finally {
  await emulator.close();
}
`,
  );
  const smoke = await run(process.execPath, ["smoke.mjs"], scratch);
  t.equal(smoke.code, 0, smoke.stderr);
  const out = JSON.parse(smoke.stdout.trim().split("\n").pop() ?? "{}");
  t.equal(out.exitCode, 0, "the conformance run passes against the emulator");
  t.ok(out.rules > 100 && out.judged > 0, `rules ${out.rules}, judged ${out.judged}`);
  t.ok(existsSync(join(scratch, "reports", "report.json")), "reports written where asked");

  // CommonJS users: require("cpsim") with plain node -e (Node 20.19+ loads the ES module graph
  // synchronously, which a top-level await anywhere in it would refuse: charts load when drawn).
  const cjs = await run(
    process.execPath,
    [
      "-e",
      `const cpsim = require("cpsim");
const s = cpsim.simulate({ scenario: cpsim.loadScenario("default"), seed: 7, hours: 0.2 });
let wrong = "";
try { cpsim.simulate("default"); } catch (e) { wrong = e.name + ": " + e.message; }
console.log(JSON.stringify({ hash: s.hash, events: s.events, kinds: [typeof cpsim.startEmulator, typeof cpsim.plan, typeof cpsim.conform, typeof cpsim.load], wrong }));`,
    ],
    scratch,
  );
  t.equal(cjs.code, 0, `require("cpsim"): ${cjs.stderr}`);
  const esm = await run(
    process.execPath,
    ["--input-type=module", "-e", `import { simulate, loadScenario } from "cpsim"; console.log(JSON.stringify(simulate({ scenario: loadScenario("default"), seed: 7, hours: 0.2 }).hash));`],
    scratch,
  );
  t.equal(esm.code, 0, `import "cpsim": ${esm.stderr}`);
  if (cjs.code === 0 && esm.code === 0) {
    const r = JSON.parse(cjs.stdout.trim()) as { hash: string; events: number; kinds: string[]; wrong: string };
    t.same(r.kinds, ["function", "function", "function", "function"], "the library API through require");
    t.ok(r.events > 0);
    t.equal(JSON.stringify(r.hash), esm.stdout.trim(), "require and import run the same model: the same event-log hash");
    t.match(r.wrong, /^LibraryArgumentError: simulate\(options\): options must be an object/, "a wrong call says what to pass");
  }

  const bin = await run(join(scratch, "node_modules", ".bin", "cpsim"), ["rules", "jobs.cancel.*", "--json"], scratch);
  t.equal(bin.code, 0, bin.stderr);
  t.ok((JSON.parse(bin.stdout) as unknown[]).length >= 3, "the installed binary runs the build");

  writeFileSync(
    join(scratch, "consumer.ts"),
    `import { startEmulator, type EmulatorOptions, type Rule, rules } from "cpsim";
const options: Partial<EmulatorOptions> = { clock: "manual", seed: 3 };
const first: Rule = rules[0];
export async function baseUrl(): Promise<string> {
  const emulator = await startEmulator(options);
  await emulator.close();
  return emulator.baseUrl + first.id;
}
// @ts-expect-error: the declarations are real, so a wrong option type is an error
export const wrong: Partial<EmulatorOptions> = { clock: "sometimes" };
`,
  );
  const require = createRequire(import.meta.url);
  const tsc = require.resolve("typescript/bin/tsc");
  const types = join(packageRoot, "node_modules", "@types");
  const checked = await run(
    process.execPath,
    [tsc, "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--typeRoots", types, "--types", "node", "consumer.ts"],
    scratch,
  );
  t.equal(checked.code, 0, `tsc on the consumer: ${checked.stdout}${checked.stderr}`);
  // What docs/library.md says a TypeScript project needs (#35), shown as tsc reports it: without
  // @types/node the errors are in cpsim's own declarations, and a CommonJS project cannot import it.
  const noNodeTypes = await run(
    process.execPath,
    [tsc, "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--typeRoots", join(scratch, "no-types"), "consumer.ts"],
    scratch,
  );
  t.not(noNodeTypes.code, 0, "without @types/node tsc fails");
  t.match(noNodeTypes.stdout, /node_modules\/cpsim\/dist\/.*\.d\.ts.*Cannot find name 'Buffer'/, "inside cpsim's declarations, as the page says");
  const library = readFileSync(join(packageRoot, "docs", "library.md"), "utf8");
  t.match(library, /`@types\/node`/, "docs/library.md names @types/node");
  mkdirSync(join(scratch, "cjs"));
  writeFileSync(join(scratch, "cjs", "package.json"), JSON.stringify({ name: "cjs", private: true, type: "commonjs" }));
  writeFileSync(join(scratch, "cjs", "consumer.ts"), `import { rules } from "cpsim";\nexport const n: number = rules.length;\n`);
  const cjsProject = await run(
    process.execPath,
    [tsc, "--noEmit", "--strict", "--module", "node16", "--moduleResolution", "node16", "--target", "es2022", "--typeRoots", types, "--types", "node", "consumer.ts"],
    join(scratch, "cjs"),
  );
  t.match(cjsProject.stdout, /TS1479/, "a .ts file of a CommonJS project cannot import cpsim (TS1479)");
  t.match(library, /TS1479/, "docs/library.md says so, and what to do");
  t.ok(shipped.includes("docs/choices.md"), "the docs pages ship, so a skip reason's docs/choices.md is there in an installed cpsim");
  t.ok(readdirSync(join(scratch, "node_modules", "cpsim", "dist")).includes("index.d.ts"));
  t.match(readFileSync(join(scratch, "node_modules", "cpsim", "package.json"), "utf8"), /"types": "\.\/dist\/index\.d\.ts"/);
});
