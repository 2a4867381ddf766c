/**
 * Purity: the simulation core and domain must not read clocks, draw unseeded randomness, start
 * timers or touch I/O, or a run would stop being a function of its seed. This scans every non-test,
 * non-bench .ts file under sim/core and sim/domain (whatever exists) and names file and line.
 * Extend the lists below to forbid more.
 */
import t from "tap";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { packageRoot } from "../package-root.ts";

/** Forbidden expressions: a label and the pattern that finds it in code (comments are ignored). */
const FORBIDDEN: Array<{ label: string; pattern: RegExp }> = [
  { label: "Date.now", pattern: /\bDate\s*\.\s*now\b/ },
  { label: "Math.random", pattern: /\bMath\s*\.\s*random\b/ },
  { label: "new Date(", pattern: /\bnew\s+Date\s*\(/ },
  { label: "performance.now", pattern: /\bperformance\s*\.\s*now\b/ },
  { label: "setTimeout", pattern: /\bsetTimeout\b/ },
  { label: "setInterval", pattern: /\bsetInterval\b/ },
  { label: "setImmediate", pattern: /\bsetImmediate\b/ },
  { label: "process.", pattern: /(?<![\w$.])process\s*\./ },
];

/** Forbidden modules, matched in import/export-from, dynamic import() and require(). */
const FORBIDDEN_MODULES = [
  "fs",
  "node:fs",
  "fs/promises",
  "node:fs/promises",
  "net",
  "node:net",
  "http",
  "node:http",
  "https",
  "node:https",
  "http2",
  "node:http2",
  "child_process",
  "node:child_process",
  "undici",
];

const ROOT = packageRoot;
const SCANNED = ["sim/core", "sim/domain"];

/** Blanks out comments, keeping line breaks (and strings, so import specifiers stay visible). */
export function stripComments(source: string): string {
  let out = "";
  let i = 0;
  let quote = "";
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (quote) {
      out += c;
      if (c === "\\") {
        out += next ?? "";
        i += 2;
        continue;
      }
      if (c === quote) quote = "";
      i++;
    } else if (c === "/" && next === "/") {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (c === "/" && next === "*") {
      i += 2;
      while (i < source.length && !(source[i] === "*" && source[i + 1] === "/")) {
        if (source[i] === "\n") out += "\n";
        i++;
      }
      i += 2;
    } else {
      if (c === '"' || c === "'" || c === "`") quote = c;
      out += c;
      i++;
    }
  }
  return out;
}

/** Every violation in one file's text, as "line N: label". */
export function scan(source: string): string[] {
  const found: string[] = [];
  const lines = stripComments(source).split("\n");
  const modules = FORBIDDEN_MODULES.map((m) => m.replace(/[/]/g, "\\/")).join("|");
  const importPattern = new RegExp(
    `(?:\\bfrom\\s*|\\bimport\\s*\\(?\\s*|\\brequire\\s*\\(\\s*)["'](${modules})["']`,
  );
  lines.forEach((line, index) => {
    for (const { label, pattern } of FORBIDDEN) {
      if (pattern.test(line)) found.push(`line ${index + 1}: ${label}`);
    }
    const m = importPattern.exec(line);
    if (m) found.push(`line ${index + 1}: import of "${m[1]}"`);
  });
  return found;
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== "bench" && name !== "node_modules") files.push(...sourceFiles(path));
    } else if (name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".bench.ts")) {
      files.push(path);
    }
  }
  return files;
}

t.test("the scanner finds each forbidden thing and ignores comments", (t) => {
  const bad = [
    "const a = Date.now();",
    "const b = Math.random();",
    "const c = new Date(0);",
    "const d = performance.now();",
    "setTimeout(f, 1);",
    "setInterval(f, 1);",
    "setImmediate(f);",
    "const e = process.env.X;",
    'import { readFileSync } from "node:fs";',
    'import * as fs from "fs";',
    'const n = await import("net");',
    'const h = require("http");',
    'import { request } from "undici";',
    'export { get } from "node:https";',
    'import { spawn } from "node:child_process";',
  ];
  for (const line of bad) t.equal(scan(line).length, 1, line);
  t.same(scan("// Date.now is banned here\n/* Math.random too */\nconst ok = 1;"), []);
  t.same(scan('const s = "http://example"; // url in a string'), []);
  t.same(scan("const myprocess = { x: 1 }; myprocess.x; this.process.x;"), []);
  t.same(scan("ok();\n\nconst t = Date.now();"), ["line 3: Date.now"]);
  t.end();
});

t.test("sim/core and sim/domain are pure", (t) => {
  const violations: string[] = [];
  let scanned = 0;
  for (const dir of SCANNED) {
    for (const file of sourceFiles(join(ROOT, dir))) {
      scanned++;
      for (const v of scan(readFileSync(file, "utf8"))) violations.push(`${relative(ROOT, file)} ${v}`);
    }
  }
  t.ok(scanned > 0, `scanned ${scanned} files`);
  t.same(violations, [], violations.join("\n"));
  t.end();
});
