/**
 * `npm run doc-snippets [-- --json] [--file PAGE] [--root DIR]`: every code block of README.md and docs/*.md
 * that a user could paste, run as the snippet tests run it (check-snippet.ts), one after the other,
 * each bounded by its marker's timeout. Prints one row per block (file:line, first line of the
 * command, passed/failed/skipped, seconds), then the load average, then the figure line
 * `snippets= passed= failed= skipped= wall_s=`. Exit 0 when none failed, 1 otherwise, 2 on a usage error.
 */
import { loadavg } from "node:os";
import { packageRoot } from "../../package-root.ts";
import { docFiles, readSnippets, scriptLanguages, shellLanguages } from "./extract.ts";
import { checkSnippet, missingPrograms, runnable } from "./check-snippet.ts";
import { filesOfGroup } from "./groups.ts";

const usage = `usage: npm run doc-snippets -- [--json] [--file PAGE]... [--root DIR]
  --json         one JSON object per snippet, then the figures, instead of the table
  --file PAGE    only this page (README.md, docs/conform.md, ...); repeatable
  --root DIR     read README.md and docs/ from DIR instead of this package (the snippets still run this package's cpsim)`;

interface Row { where: string; command: string; result: "passed" | "failed" | "skipped"; seconds: number; detail: string }

async function main(argv: string[]): Promise<number> {
  let json = false;
  const only: string[] = [];
  let root = packageRoot;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--json") json = true;
    else if (argv[i] === "--file" && argv[i + 1] !== undefined) only.push(argv[++i]!);
    else if (argv[i] === "--root" && argv[i + 1] !== undefined) root = argv[++i]!;
    else if (argv[i] === "--help" || argv[i] === "-h") return void console.log(usage), 0;
    else return void console.error(`unknown argument ${JSON.stringify(argv[i])}\n${usage}`), 2;
  }
  const all = docFiles(root);
  const unknown = only.filter((f) => !all.includes(f));
  if (unknown.length > 0) return void console.error(`no such page: ${unknown.join(", ")}\n${usage}`), 2;
  const installed = new Set(filesOfGroup("library", all));
  const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");
  const loadBefore = load();
  const started = performance.now();
  const rows: Row[] = [];
  for (const file of only.length > 0 ? only : all) {
    for (const s of readSnippets(root, file)) {
      if (!shellLanguages.has(s.lang) && !scriptLanguages.has(s.lang)) continue;
      const row: Row = { where: `${s.file}:${s.line}`, command: s.code.split("\n").find((l) => l.trim() !== "" && !l.trim().startsWith("#")) ?? "", result: "skipped", seconds: 0, detail: "" };
      if (typeof s.marker === "string" || s.marker === null) Object.assign(row, { result: "failed", detail: s.marker ?? "no readme-test marker" });
      else if (s.marker.kind === "skip") row.detail = s.marker.reason;
      else if (runnable(s)) {
        const missing = missingPrograms(s);
        if (missing !== null) row.detail = missing;
        else {
          const check = await checkSnippet(s, { installed: installed.has(file) });
          Object.assign(row, { result: check.problems.length === 0 ? "passed" : "failed", seconds: check.seconds, detail: check.problems.join(" | ") });
        }
      }
      rows.push(row);
      if (json) console.log(JSON.stringify(row));
      else console.log(`${row.where.padEnd(28)} ${row.result.padEnd(7)} ${row.seconds.toFixed(1).padStart(6)} s  ${row.command.slice(0, 90)}${row.result === "passed" ? "" : `\n${" ".repeat(37)}${row.detail.slice(0, 2000)}`}`);
    }
  }
  const count = (r: Row["result"]) => rows.filter((x) => x.result === r).length;
  const wall = (performance.now() - started) / 1000;
  const loadline = `load average before: ${loadBefore}; after: ${load()}`;
  const figures = `snippets=${rows.length} passed=${count("passed")} failed=${count("failed")} skipped=${count("skipped")} wall_s=${wall.toFixed(1)}`;
  if (json) console.log(JSON.stringify({ loadBefore, loadAfter: load(), figures }));
  else console.log(loadline);
  console.log(figures);
  return count("failed") === 0 ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
