// The README and the manual in docs/ work when followed literally: every shell block is marked
// (run, or skipped with a reason), runs through `npx cpsim`, and the runnable ones run as written
// (snippet-tests.ts); links lead somewhere; the README stays a front door and states the test
// command .ci/run runs. This file runs README.md's snippets and those of pages no other group names.
import t from "tap";
import { readFileSync } from "node:fs";
import { packagePath, packageRoot } from "../../package-root.ts";
import { bareCpsimCalls, docFiles, extractSnippets, parseMarker, readSnippets, scriptLanguages, shellLanguages } from "./extract.ts";
import { filesOfGroup } from "./groups.ts";
import { brokenLinks, slug } from "./links.ts";
import { runSnippet } from "./run-snippet.ts";
import { readmeExports, standInTarget, testSnippetsOf } from "./snippet-tests.ts";
import { makeWorkdir } from "./workdir.ts";

// Each snippet is bounded by its own timeout; the file by 900 s: 456 s for docs-conform at load 10.
t.setTimeout(900_000);
const files = docFiles(packageRoot);

t.test("markers are read as documented", async (t) => {
  t.equal(parseMarker("not a marker"), null);
  t.same(parseMarker("<!-- readme-test -->"), { kind: "run", exit: [0], target: false, expect: [], timeoutS: 120, needs: [] });
  t.same(parseMarker('<!-- readme-test exit=1 target timeout=30 expect="a b" expect="c" -->'), { kind: "run", exit: [1], target: true, expect: ["a b", "c"], timeoutS: 30, needs: [] });
  t.same(parseMarker(`<!-- readme-test expect='"a": 1' -->`), { kind: "run", exit: [0], target: false, expect: ['"a": 1'], timeoutS: 120, needs: [] });
  t.same(parseMarker("<!-- readme-test skip: needs a Kubernetes cluster -->"), { kind: "skip", reason: "needs a Kubernetes cluster" });
  t.match(parseMarker("<!-- readme-test skip: -->"), /reason/);
  t.match(parseMarker("<!-- readme-test exit=x -->"), /unknown marker option/);
  t.match(parseMarker("<!-- readme-test exit=0|1 -->"), { exit: [0, 1] });
  t.match(parseMarker("<!-- readme-test needs=python3 needs=curl -->"), { needs: ["python3", "curl"] });
  const [s] = extractSnippets("x.md", "text\n<!-- readme-test exit=2 -->\n```sh\nnpx cpsim nope\n```\n");
  t.match(s, { line: 3, lang: "sh", code: "npx cpsim nope", marker: { kind: "run", exit: [2] } });
  t.same(bareCpsimCalls("npx cpsim serve &\ncpsim conform\nx=$(cpsim rules)\n# cpsim in a comment\necho cpsim"), ["cpsim conform", "x=$(cpsim rules)"]);
  t.equal(slug("`cpsim plan`: capacity planning"), "cpsim-plan-capacity-planning");
});

t.test("the runner finds what a snippet leaves behind", async (t) => {
  const work = makeWorkdir(packageRoot);
  try {
    const run = await runSnippet("shell", "sleep 30 &\necho made > stray.txt\necho done", { cwd: work.dir, env: { ...process.env, TMPDIR: work.tmp }, timeoutMs: 20_000, settleMs: 300 });
    t.equal(run.code, 0);
    t.equal(run.stdout, "done\n");
    t.match(run.leftovers, [/^\d+ sleep 30$/], "the background sleep is reported, then killed");
    t.same(work.strays(), ["stray.txt"], "a file written into the working directory is reported");
    const failed = await runSnippet("script", "process.exit(3)", { cwd: work.dir, env: process.env, timeoutMs: 20_000 });
    t.equal(failed.code, 3);
    t.same(failed.leftovers, []);
  } finally {
    work.remove();
  }
});

t.test("every shell and script block is marked, and calls cpsim through npx", async (t) => {
  t.ok(files.includes("docs/README.md"), "the docs index exists");
  for (const file of files) {
    for (const s of readSnippets(packageRoot, file)) {
      const where = `${s.file}:${s.line}`;
      t.not(s.lang, "", `${where}: a code block names its language (text for a usage synopsis)`);
      if (!shellLanguages.has(s.lang) && !scriptLanguages.has(s.lang)) continue;
      t.ok(s.marker !== null, `${where}: marked <!-- readme-test ... --> (or skip: REASON)`);
      if (typeof s.marker === "string") t.fail(`${where}: ${s.marker}`);
      if (shellLanguages.has(s.lang)) t.same(bareCpsimCalls(s.code), [], `${where}: cpsim runs as npx cpsim (it is not on PATH after npm ci)`);
    }
  }
});

t.test("every snippet runs with the variables the README's \"Check my service\" exports", async (t) => {
  const target = await standInTarget();
  try {
    t.same(readmeExports(packageRoot), Object.keys(target.env), "the README exports TARGET and the three keys, and the snippets get each");
  } finally {
    await target.close();
  }
});

t.test("npm pack's tarball is not left as an untracked file of the clone (#35)", async (t) => {
  const { spawnSync } = await import("node:child_process");
  const name = `cpsim-${(JSON.parse(readFileSync(packagePath("package.json"), "utf8")) as { version: string }).version}.tgz`;
  const probe = spawnSync("git", ["check-ignore", "--no-index", "-q", name], { cwd: packageRoot });
  if (probe.error !== undefined || probe.status === 128) return void t.comment("not a git clone: nothing to check");
  t.equal(probe.status, 0, `.gitignore ignores ${name}`);
});

t.test("links in the README and docs lead somewhere", async (t) => {
  for (const file of files) {
    // docs/proxy.md is written on the proxy branch; until it is merged, links to it wait for it.
    const broken = brokenLinks(packageRoot, file).filter((b) => !b.startsWith("proxy.md: no file") && !b.startsWith("docs/proxy.md: no file"));
    t.same(broken, [], file);
  }
});

t.test("the README is a front door that states the commands CI runs", async (t) => {
  const readme = readFileSync(packagePath("README.md"), "utf8");
  t.ok(readme.split("\n").length <= 200, `README.md has ${readme.split("\n").length} lines (at most 200)`);
  t.match(readme, /^npm ci && npm start\b/m, "the main job");
  t.match(readme, /^npm ci && npm test\b/m, "the test command");
  const ci = readFileSync(packagePath(".ci/run"), "utf8").split("\n").map((l) => l.trim()).filter((l) => /^npm (ci|test)\b/.test(l));
  t.same(ci.map((l) => l.split(/\s+/).slice(0, 2).join(" ")), ["npm ci", "npm test"], ".ci/run runs the README's test command: npm ci, then npm test");
  const pkg = JSON.parse(readFileSync(packagePath("package.json"), "utf8")) as { scripts: Record<string, string> };
  t.match(pkg.scripts.start, /cpsim\.js conform$/, "npm start is the conformance suite against the embedded emulator");
  for (const page of ["conform", "serve", "load", "plan", "simulate", "handler", "mutation", "rules", "proxy"]) {
    t.match(readme, `(docs/${page}.md)`, `the README links the ${page} page`);
  }
});

t.test("the library page declares every export of the package and runs every function in an example", async (t) => {
  const api = (await import("../../../index.ts")) as Record<string, unknown>;
  const blocks = readSnippets(packageRoot, "docs/library.md");
  const declared = blocks.filter((b) => b.lang === "ts").map((b) => b.code).join("\n");
  const examples = blocks.filter((b) => b.lang === "js" && typeof b.marker === "object" && b.marker?.kind === "run").map((b) => b.code).join("\n");
  for (const [name, value] of Object.entries(api)) {
    t.match(declared, new RegExp(`(?:function|class|const)\\s+${name}\\b|[\\s,]${name}\\s*[,:]`), `${name} is declared in a ts block of docs/library.md`);
    const isClass = typeof value === "function" && /^class\b/.test(Function.prototype.toString.call(value));
    if (typeof value === "function" && !isClass) t.match(examples, new RegExp(`\\b${name}\\(`), `${name} is called in a runnable example`);
  }
});

testSnippetsOf(t, filesOfGroup("readme", files));
