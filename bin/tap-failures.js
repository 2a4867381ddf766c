#!/usr/bin/env node
// Prints the failures of a TAP log again, each under the names of the subtests holding it: CI
// keeps only the tail of npm test's output, and tap's plain TAP reporter lists no failures last.
// Usage: node bin/tap-failures.js LOG. Not published.
import { readFileSync } from "node:fs";

const MAX_LINES_PER_FAILURE = 60;
const MAX_FAILURES = 12;

const file = process.argv[2];
if (!file) {
  console.error("usage: node bin/tap-failures.js LOG (a file holding tap's TAP output)");
  process.exit(2);
}
const lines = readFileSync(file, "utf8").split("\n");
const indentOf = (line) => line.length - line.trimStart().length;

/** Every "not ok" line: a failing assertion, and each subtest and test file holding one. */
const failures = [];
const path = []; // [{ indent, name }] of the "# Subtest:" lines enclosing the current line
for (let i = 0; i < lines.length; i++) {
  const line = lines[i];
  const indent = indentOf(line);
  const subtest = line.trimStart().match(/^# Subtest: (.*)$/);
  if (subtest) {
    while (path.length && path[path.length - 1].indent >= indent) path.pop();
    path.push({ indent, name: subtest[1] });
    continue;
  }
  if (!/^not ok\b/.test(line.trimStart())) continue;
  const next = lines[i + 1] ?? "";
  const hasBody = indentOf(next) > indent && next.trimStart() === "---";
  const names = path.filter((p) => p.indent < indent).map((p) => p.name);
  const body = [];
  if (hasBody) {
    for (let j = i + 1; j < lines.length && body.length < MAX_LINES_PER_FAILURE; j++) {
      body.push(lines[j]);
      if (lines[j].trimStart() === "..." && indentOf(lines[j]) === indentOf(next)) break;
    }
  }
  failures.push({ names, line: line.trim(), body });
}

console.log(`\n=== ${failures.length} "not ok" line(s) in ${file}, the first ${MAX_FAILURES} again: ===`);
for (const f of failures.slice(0, MAX_FAILURES)) {
  console.log(`\n--- ${[...f.names, f.line].join("\n    > ")}`);
  for (const b of f.body) console.log(b);
}
process.exit(failures.length ? 0 : 1);
