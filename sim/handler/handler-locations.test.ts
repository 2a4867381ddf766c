// Handlers load wherever a user keeps them: each of .ts .mts .cts .js .mjs .cjs, written as an ES
// module or as CommonJS, in a folder with no package.json, with the "type": "commonjs" one that
// `npm init -y` writes, and with "type": "module". A file of its own: 36 worker threads start here
// (tsx in most), which on a busy machine takes longer than its neighbours' file allows.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { HandlerLoadError, loadHandler } from "./index.ts";

t.setTimeout(300_000);

t.test("JavaScript and TypeScript handlers load wherever they are kept: every extension, ESM or CommonJS, any package.json", { timeout: 300_000 }, async (t) => {
  const root = mkdtempSync(join(tmpdir(), "cpsim-where-"));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  // "commonjs" is what `npm init -y` writes; "none" is a folder with no package.json at all.
  const packages: Record<string, string | undefined> = {
    none: undefined,
    commonjs: JSON.stringify({ name: "my-handler", version: "1.0.0", main: "index.js", type: "commonjs", license: "ISC" }),
    module: JSON.stringify({ name: "my-handler", type: "module" }),
  };
  const typed = (ext: string): string => (/ts$/.test(ext) ? ": { input: { x: number } }" : "");
  const sources = {
    esm: (ext: string) => `export default async function handler(job${typed(ext)}) {\n  return { y: job.input.x * 2, syntax: "esm" };\n}\n`,
    cjs: (ext: string) => `module.exports = function handler(job${typed(ext)}) {\n  return { y: job.input.x * 2, syntax: "cjs" };\n};\n`,
  };
  // What Node itself forbids, refused with the fix: export in a .cjs file, module.exports in an ES module.
  const refused = (pkg: string, syntax: string, ext: string): RegExp | undefined => {
    if (syntax === "esm" && ext === "cjs") return /a \.cjs file is CommonJS; write module\.exports = /;
    if (syntax === "cjs" && ext === "mjs") return /a \.mjs file is an ES module; write export default/;
    if (syntax === "cjs" && ext === "js" && pkg === "module") return /treated as an ES module.*rename it to use the '\.cjs' file extension/s;
    return undefined;
  };
  let loaded = 0;
  for (const [pkg, json] of Object.entries(packages)) {
    const dir = join(root, pkg);
    mkdirSync(dir);
    if (json !== undefined) writeFileSync(join(dir, "package.json"), json);
    for (const [syntax, source] of Object.entries(sources)) {
      for (const ext of ["ts", "mts", "cts", "js", "mjs", "cjs"]) {
        const file = join(dir, `${syntax}-handler.${ext}`);
        writeFileSync(file, source(ext));
        const name = `${pkg} package.json, ${syntax} syntax, .${ext}`;
        const expectRefusal = refused(pkg, syntax, ext);
        const runtime = await loadHandler(file).catch((e: unknown) => e as Error);
        if (expectRefusal !== undefined) {
          t.ok(runtime instanceof HandlerLoadError, `${name}: refused`);
          t.match((runtime as Error).message, expectRefusal, `${name}: says what to change`);
          continue;
        }
        if (runtime instanceof Error) {
          t.fail(`${name}: ${runtime.message}`);
          continue;
        }
        t.teardown(() => runtime.close());
        t.same(await runtime.run({ id: "w", input: { x: 21 } }).result, { ok: true, output: { y: 42, syntax } }, name);
        await runtime.close();
        loaded++;
      }
    }
  }
  t.equal(loaded, 29, "29 of the 36 combinations load; the 7 that Node itself forbids (export in .cjs, module.exports in .mjs or in a \"type\": \"module\" .js) are refused");
});
