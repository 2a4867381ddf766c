/**
 * The exported k6 scripts: type-checked against @types/k6 (tsc, checkJs), and each one's setup,
 * default function, teardown and handleSummary run against the embedded emulator (in its child
 * process) through a stand-in of the k6 modules, so a broken script is caught here although k6
 * itself is not installed. The k6-operator manifest and recipe are written beside them.
 */
import t from "tap";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { baselineFigures } from "../baseline.ts";
import { startChildEmulator } from "../emulator-child.ts";
import { builtinScenarios } from "../scenarios/index.ts";
import { exportK6 } from "./export-k6.ts";
import { closeSyncHttp, standin, withStandin } from "./standin/index.ts";

const require = createRequire(import.meta.url);
const dir = t.testdir();
const files = await exportK6(builtinScenarios, dir, { endpoint: "conformance", seed: 5 });

t.test("writes one script per scenario, a TestRun per scenario and the ConfigMap recipe", async (t) => {
  t.equal(files.filter((f) => f.endsWith(".js")).length, builtinScenarios.length);
  const manifest = readFileSync(join(dir, "testrun.yaml"), "utf8");
  t.equal(manifest.match(/^kind: TestRun$/gm)?.length, builtinScenarios.length);
  t.match(manifest, /configMap:\n\s+name: cpsim-load-scripts\n\s+file: run-small\.js/);
  t.match(manifest, /secretKeyRef:/);
  t.notMatch(manifest, /cpsim_[a-z]+_/, "no key in the manifest");
  t.match(readFileSync(join(dir, "README.md"), "utf8"), /kubectl create configmap cpsim-load-scripts --from-file=/);
  const script = readFileSync(join(dir, "scripts", "run-small.js"), "utf8");
  t.match(script, /executor: "constant-arrival-rate"/);
  t.match(script, /thresholds: \{"checks":\["rate>0\.99"\]/);
  t.match(script, /export function handleSummary/);
  t.ok(Buffer.byteLength(readFileSync(join(dir, "scripts", "runsync-near-limit.js"))) < 20_000, "large bodies are built by the script, not shipped in it");
});

t.test("the scripts type-check against @types/k6", async (t) => {
  const types = dirname(dirname(require.resolve("@types/k6/package.json")));
  await writeFile(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { allowJs: true, checkJs: true, noEmit: true, strict: true, target: "ES2020", module: "ES2020", moduleResolution: "node", lib: ["ES2020"], types: ["k6"], typeRoots: [types], skipLibCheck: true },
      include: ["scripts/*.js"],
    }),
  );
  const tsc = require.resolve("typescript/bin/tsc");
  const out = await new Promise<string>((resolve) => {
    execFile(process.execPath, [tsc, "-p", join(dir, "tsconfig.json")], { timeout: 60_000 }, (err, stdout, stderr) => resolve(err ? `${stdout}${stderr}` || String(err) : ""));
  });
  t.equal(out, "", "tsc found no error");
});

t.test("each script's functions run against the emulator through the k6 stand-in", async (t) => {
  const emulator = await startChildEmulator(5);
  t.teardown(async () => {
    await closeSyncHttp();
    await emulator.stop();
  });
  (globalThis as { __ENV?: Record<string, string> }).__ENV = {
    BASE_URL: emulator.baseUrl,
    SERVERLESS_URL: emulator.serverlessUrl,
    API_KEY: emulator.apiKeys.find((k) => k.access === "exempt")!.key,
    LIMITED_API_KEY: emulator.apiKeys.find((k) => k.account === "acct-beta")!.key,
    SUMMARY_DIR: dir,
  };
  for (const s of builtinScenarios) {
    standin.reset();
    const file = join(dir, `${s.name}.standin.mjs`);
    await writeFile(file, withStandin(readFileSync(join(dir, "scripts", `${s.name}.js`), "utf8")));
    const mod = (await import(pathToFileURL(file).href)) as {
      options: { scenarios: Record<string, { executor: string }>; thresholds: Record<string, string[]> };
      setup?: () => unknown;
      default: (data: unknown) => void;
      teardown?: (data: unknown) => void;
      handleSummary: (data: unknown) => Record<string, string>;
    };
    t.equal(mod.options.scenarios[s.name].executor, "constant-arrival-rate", `${s.name}: executor`);
    t.same(mod.options.thresholds, s.thresholds, `${s.name}: the scenario's thresholds`);
    const data = mod.setup ? mod.setup() : undefined;
    const iterations = s.name.includes("limit") && s.name !== "rate-limit" ? 2 : 6;
    for (let i = 0; i < iterations; i++) {
      standin.iteration = i;
      mod.default(data);
    }
    mod.teardown?.(data);
    t.ok(standin.requests >= iterations, `${s.name}: requests made`);
    const failed = [...standin.checks].filter(([, c]) => c.fails > 0);
    t.same(failed, [], `${s.name}: every check passed`);
    t.ok([...standin.checks.values()].some((c) => c.passes > 0), `${s.name}: checks ran`);
    const out = mod.handleSummary({ metrics: { http_req_duration: { values: { med: 1.5, "p(99)": 9 } }, http_reqs: { values: { rate: 100, count: 600 } } } });
    const summaryFile = join(dir, `${s.name}.summary.json`);
    t.same(baselineFigures(JSON.parse(out[summaryFile]), summaryFile), [{ name: s.name, model: "k6", rps: 100, p50Us: 1500, p99Us: 9000 }], `${s.name}: the summary is a baseline`);
  }
});
