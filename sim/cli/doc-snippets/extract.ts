/**
 * The documentation's code blocks, read from README.md and docs/*.md, each with the marker line
 * right above its fence. Markers say how the snippet tests (./*.test.ts) treat a block:
 *   <!-- readme-test -->                                  run it as written; it must exit 0
 *     (exit=1: it must exit 1; exit=0|1: either, where the outcome depends on the machine's load)
 *   <!-- readme-test exit=1 target timeout=90 expect="PASSED" expect='"id"' -->   options, any of them
 *   <!-- readme-test skip: REASON -->                     not run, for the reason given
 * `target`: the snippet is about "your service". Every snippet runs with the variables README.md's
 * "Check my service" exports (TARGET, CPSIM_API_KEY, CPSIM_RESTRICTED_API_KEY, CPSIM_OTHER_API_KEY),
 * set to an emulator the test starts first, standing in for that service.
 * `expect="TEXT"` (repeatable): TEXT must appear in the snippet's stdout or stderr.
 * `needs=PROGRAM` (repeatable): skipped, saying so, when PROGRAM (python3, curl) is not on PATH.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Languages run by bash; every block in one of these needs a marker. */
export const shellLanguages = new Set(["sh", "bash", "shell", "console", "zsh"]);
/** Languages run by node as an ES module (a marker says whether). */
export const scriptLanguages = new Set(["js", "mjs"]);

export type Marker =
  | { kind: "run"; exit: number[]; target: boolean; expect: string[]; timeoutS: number; needs: string[] }
  | { kind: "skip"; reason: string };

export interface Snippet {
  /** Path relative to the package root, e.g. docs/serve.md. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  /** null: no marker; a string: a marker that could not be read (the message). */
  marker: Marker | null | string;
}

const DEFAULT_TIMEOUT_S = 120;

/** README.md and every docs/*.md, relative to root, README first. */
export function docFiles(root: string): string[] {
  const docs = existsSync(join(root, "docs")) ? readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`) : [];
  return ["README.md", ...docs];
}

export function readSnippets(root: string, file: string): Snippet[] {
  return extractSnippets(file, readFileSync(join(root, file), "utf8"));
}

export function extractSnippets(file: string, text: string): Snippet[] {
  const lines = text.split("\n");
  const out: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    // A fence may be indented (a block inside a list item); its lines lose that indentation.
    const open = /^( *)```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    let end = i + 1;
    while (end < lines.length && !/^ *```\s*$/.test(lines[end])) end++;
    const previous = i > 0 ? lines[i - 1].trim() : "";
    const code = lines.slice(i + 1, end).map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length))).join("\n");
    out.push({ file, line: i + 1, lang: open[2], code, marker: parseMarker(previous) });
    i = end;
  }
  return out;
}

/** The marker in a line, null when the line is none, or a message when it is one but malformed. */
export function parseMarker(line: string): Marker | null | string {
  const m = /^<!--\s*readme-test\b(.*?)-->$/.exec(line);
  if (!m) return null;
  const rest = m[1].trim();
  const skip = /^skip:\s*(.*)$/.exec(rest);
  if (skip) return skip[1].trim() === "" ? "a skip marker must give its reason" : { kind: "skip", reason: skip[1].trim() };
  const marker: Marker = { kind: "run", exit: [0], target: false, expect: [], timeoutS: DEFAULT_TIMEOUT_S, needs: [] };
  for (const token of rest.match(/\w+="[^"]*"|\w+='[^']*'|\S+/g) ?? []) {
    const kv = /^(\w+)(?:=(.*))?$/.exec(token);
    const key = kv?.[1];
    const value = kv?.[2]?.replace(/^"(.*)"$|^'(.*)'$/, "$1$2");
    if (key === "target" && value === undefined) marker.target = true;
    else if (key === "exit" && value !== undefined && /^\d+(\|\d+)*$/.test(value)) marker.exit = value.split("|").map(Number);
    else if (key === "timeout" && value !== undefined && /^\d+$/.test(value)) marker.timeoutS = Number(value);
    else if (key === "expect" && value !== undefined && value !== "") marker.expect.push(value);
    else if (key === "needs" && value !== undefined && /^[\w.-]+$/.test(value)) marker.needs.push(value);
    else return `unknown marker option ${JSON.stringify(token)} (known: exit=N or exit=N|M, target, timeout=S, expect="TEXT", needs=PROGRAM, skip: REASON)`;
  }
  return marker;
}

/** Lines of a shell snippet that call cpsim bare (not through npx), which fails when pasted. */
export function bareCpsimCalls(code: string): string[] {
  return code.split("\n").filter((l) => /(^|[;&|(]\s*|\$\(\s*|^\s*(?:then|do|else)\s+)cpsim\s/.test(l.replace(/#.*$/, "")));
}
