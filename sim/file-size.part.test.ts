// Parts a reader can hold in mind: no source file of sim/ grows past 700 lines (DESIGN.md: small
// files, one idea per file). sim/http/emulator.ts is the one file still waiting for its split.
import t from "tap";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { packagePath } from "./package-root.ts";

const MAX_LINES = 700;
const WAITING = new Set(["sim/http/emulator.ts"]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sources(path);
    return d.name.endsWith(".ts") && !d.name.endsWith(".test.ts") && !d.name.endsWith(".d.ts") ? [path] : [];
  });
}

t.test(`no source file under sim/ is over ${MAX_LINES} lines`, async (t) => {
  const files = sources(packagePath("sim"));
  t.ok(files.length > 100, "the sources are there");
  const long = files
    .map((f) => ({ file: relative(packagePath(), f).split("\\").join("/"), lines: readFileSync(f, "utf8").split("\n").length }))
    .filter((f) => f.lines > MAX_LINES && !WAITING.has(f.file));
  t.same(long, [], "split these by responsibility");
});

t.test("the serverless model: a façade over parts of at most about 400 lines each", async (t) => {
  const dir = packagePath("sim", "domain", "serverless");
  for (const name of ["serverless.ts", "model-core.ts", "job-queues.ts", "job-lifecycle.ts", "retention.ts", "worker-scaling.ts", "external-jobs.ts", "output-budget.ts", "job-views.ts", "endpoint-registry.ts"]) {
    const lines = readFileSync(join(dir, name), "utf8").split("\n").length;
    t.ok(lines <= 420, `${name}: ${lines} lines`);
  }
});
