/**
 * What cpsim prints and ships cites only files its users have (#35: 33 skip reasons and many pages
 * cited `choices.md`, a file no clone or installed package holds). Every string of the sources
 * (skip reasons, rule texts, evidence, help; comments are for developers and not read here) that
 * names a page `docs/NAME.md` names one that exists and that the package ships; none names a
 * bare `choices.md`; and README.md and the docs pages mention `choices.md` only as a link to
 * docs/choices.md.
 */
import t from "tap";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { packageRoot } from "../package-root.ts";

const SOURCE_DIRS = ["conformance", "load", "reports", "sim"];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts") && !/\.test\.ts$/.test(name)) out.push(path);
  }
  return out;
}

/** The text of every string and template literal of a file, with its line. */
function stringsOf(file: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const out: { line: number; text: string }[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) {
      out.push({ line: source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1, text: n.text });
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return out;
}

const files = [...SOURCE_DIRS.flatMap((d) => sourceFiles(join(packageRoot, d))), join(packageRoot, "index.ts")];
const shipped = (JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as { files: string[] }).files;

t.test("the docs pages ship with the package, so a cited page is there in an installed cpsim too", async (t) => {
  t.ok(shipped.includes("docs/"), `package.json "files" holds docs/: ${shipped.join(", ")}`);
});

t.test("every page a string of the sources cites exists; none cites a bare choices.md", async (t) => {
  let cited = 0;
  for (const file of files) {
    const where = relative(packageRoot, file);
    for (const s of stringsOf(file)) {
      for (const m of s.text.matchAll(/(?<![\w/.-])((?:[\w.-]+\/)*[\w.-]+\.md)\b/g)) {
        const path = m[1];
        if (path === "choices.md" || path.endsWith("/choices.md") && path !== "docs/choices.md") {
          t.fail(`${where}:${s.line}: cites ${path}, which a clone does not hold; cite docs/choices.md`);
        }
        if (!path.startsWith("docs/")) continue;
        cited++;
        let exists = true;
        try {
          statSync(join(packageRoot, path));
        } catch {
          exists = false;
        }
        t.ok(exists, `${where}:${s.line}: cites ${path}, which exists`);
      }
    }
  }
  t.ok(cited > 20, `the skip reasons and rule texts cite docs/choices.md (${cited} citations found)`);
});

t.test("README.md and the docs pages mention choices.md only as a link to the page", async (t) => {
  const pages = ["README.md", ...readdirSync(join(packageRoot, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
  for (const page of pages) {
    if (page === "docs/choices.md") continue;
    const text = readFileSync(join(packageRoot, page), "utf8").replace(/\[choices\.md\]\((?:docs\/)?choices\.md(?:#[\w-]+)?\)|\]\((?:docs\/)?choices\.md(?:#[\w-]+)?\)/g, "");
    const lines = text.split("\n").map((l, i) => [i + 1, l] as const).filter(([, l]) => /choices\.md/.test(l));
    t.same(lines, [], `${page}: every mention of choices.md is a link to it`);
  }
});
