/**
 * The suite reaches targets over HTTP only (DESIGN.md): no source file of conformance/ imports the
 * emulator's code (sim/http) but the embedded child process (embedded-emulator.ts, embedded-child.ts)
 * and mutation/, which start emulators on purpose. In-process test targets live in
 * conformance/test-support/, which no shipped file imports and package.json "files" leaves out of
 * the package. The sources are read as written (this test runs from dist/, the sources beside it).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import t from "tap";
import { packageRoot } from "../sim/package-root.ts";

const conformanceDir = join(packageRoot, "conformance");
const SUPPORT = "conformance/test-support/";
/** The only places that may import sim/http (benchmarks, like tests, are not shipped). */
const MAY_START_EMULATOR = [/^conformance\/embedded-(child|emulator)\.ts$/, /^conformance\/mutation\//, /\/bench\//];
const isTest = (file: string) => /\.test\.ts$/.test(file);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith(".ts") ? [path] : [];
  });
}

const SPECIFIER = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** The repository-relative paths a file's relative imports name. */
export function importsOf(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2]!;
    if (!spec.startsWith(".")) continue;
    out.push(relative(packageRoot, resolve(dirname(file), spec)).split(sep).join("/"));
  }
  return out;
}

const files = sources(conformanceDir).map((abs) => ({ abs, rel: relative(packageRoot, abs).split(sep).join("/") }));

t.test("the import reader sees every form of import", async (t) => {
  const file = join(conformanceDir, "x.ts");
  const text = `import a from "../sim/http/a.ts";\nimport type { B } from "../sim/http/b.ts";\nexport { c } from "./c.ts";\nimport "./d.ts";\nconst e = await import("../sim/http/e.ts");\nimport {\n  f,\n} from "./f.ts";`;
  t.same(importsOf(file, text), ["sim/http/a.ts", "sim/http/b.ts", "conformance/c.ts", "conformance/d.ts", "sim/http/e.ts", "conformance/f.ts"]);
});

t.test("conformance/ imports sim/http only in the embedded child process and mutation/", async (t) => {
  t.ok(files.length > 100, `the sources were found (${files.length})`);
  const offenders = files
    .filter(({ rel }) => !isTest(rel) && !rel.startsWith(SUPPORT) && !MAY_START_EMULATOR.some((re) => re.test(rel)))
    .flatMap(({ abs, rel }) => importsOf(abs, readFileSync(abs, "utf8")).filter((i) => i.startsWith("sim/http/")).map((i) => `${rel} imports ${i}`));
  t.same(offenders, [], "the suite reaches targets over HTTP only");
});

t.test("no shipped file imports test support, and the package leaves it out", async (t) => {
  const offenders = files
    .filter(({ rel }) => !isTest(rel) && !rel.startsWith(SUPPORT))
    .flatMap(({ abs, rel }) => importsOf(abs, readFileSync(abs, "utf8")).filter((i) => i.startsWith(SUPPORT)).map((i) => `${rel} imports ${i}`));
  t.same(offenders, [], "test support is imported by tests and test support only");
  const pkg = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as { files: string[] };
  t.ok(pkg.files.includes("!dist/conformance/test-support/"), 'package.json "files" leaves dist/conformance/test-support/ out');
});

t.test("the checks hold no test target: every file that starts an emulator in-process is test support", async (t) => {
  const starters = files
    .filter(({ rel }) => !isTest(rel) && !rel.startsWith(SUPPORT) && !MAY_START_EMULATOR.some((re) => re.test(rel)))
    .filter(({ abs }) => /\bstartEmulator\b|\bstartEmbeddedEmulator\b|\bPlatformBackend\b/.test(readFileSync(abs, "utf8")))
    .map(({ rel }) => rel);
  t.same(starters, []);
});
