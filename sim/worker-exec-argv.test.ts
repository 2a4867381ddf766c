// A worker thread started from `node --input-type=module -e '...'` (a user's one-liner calling
// mutation() or plan()) gets node options it can load a file with (#35: ERR_INPUT_TYPE_NOT_ALLOWED).
import t from "tap";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packagePath, packageRoot, workerExecArgv } from "./package-root.ts";

t.test("the options only an eval string applies to are dropped, the rest kept", async (t) => {
  t.same(workerExecArgv(["--input-type=module", "-e", "code", "--import", "tsx", "--expose-gc"]), ["--import", "tsx", "--expose-gc"]);
  t.same(workerExecArgv(["--input-type", "module", "--eval", "x", "--enable-source-maps"]), ["--enable-source-maps"]);
  t.same(workerExecArgv(["-p", "1", "--print=2", "--eval=3"]), []);
});

t.test("a worker file loads from an --input-type=module eval with them, and not without", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cpsim-worker-argv-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const worker = join(dir, "worker.mjs");
  writeFileSync(worker, "export {};\n");
  const code = (argv: string) => `import { Worker } from "node:worker_threads"; import { workerExecArgv } from ${JSON.stringify(packagePath("sim/package-root.ts"))};
const w = new Worker(${JSON.stringify(worker)}, { execArgv: ${argv} });
w.on("error", (e) => { console.log("error", e.code); process.exit(3); }); w.on("exit", (c) => console.log("exit", c));`;
  const run = (argv: string) => spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code(argv)], { cwd: packageRoot, encoding: "utf8", timeout: 120_000 });
  const fixed = run("workerExecArgv()");
  t.equal(fixed.status, 0, `${fixed.stdout}${fixed.stderr}`);
  const inherited = run("process.execArgv");
  t.match(inherited.stdout, /error ERR_INPUT_TYPE_NOT_ALLOWED/, "as node's own default did");
});
