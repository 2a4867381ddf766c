/**
 * CatalogError: the catalog could not be loaded. It carries every problem found, not just the
 * first, so one run shows a fixture author everything to fix; the message lists them one per
 * line as `<file>: <JSON pointer>: <what was expected>, got <value>`.
 */
import { SimError } from "../core/index.ts";

export interface CatalogIssue {
  /** The file as the user would name it: the catalog directory label joined with the file name. */
  readonly file: string;
  /** JSON pointer into the file (RFC 6901); absent for file-level problems. */
  readonly pointer?: string;
  readonly message: string;
}

/** Lines beyond this many are summarized; `issues` always holds them all. */
const MAX_LINES = 25;

export function formatIssue(issue: CatalogIssue): string {
  if (issue.pointer === undefined) return `${issue.file}: ${issue.message}`;
  // The empty pointer (the whole document) would print as nothing.
  return `${issue.file}: ${issue.pointer === "" ? "(root)" : issue.pointer}: ${issue.message}`;
}

export class CatalogError extends SimError {
  override readonly name = "CatalogError";
  readonly issues: readonly CatalogIssue[];

  constructor(issues: readonly CatalogIssue[]) {
    const lines = issues.slice(0, MAX_LINES).map(formatIssue);
    if (issues.length > MAX_LINES) lines.push(`(and ${issues.length - MAX_LINES} more problems)`);
    super(lines.join("\n"), "CPSIM_ERR_FIXTURE");
    this.issues = issues;
  }
}

/** RFC 6901 escaping of one reference token. */
export function pointerToken(token: string | number): string {
  return String(token).replaceAll("~", "~0").replaceAll("/", "~1");
}

export function pointer(...tokens: readonly (string | number)[]): string {
  return tokens.map((t) => "/" + pointerToken(t)).join("");
}

/** A value as it appears in a message: JSON, shortened. */
export function show(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? text.slice(0, 77) + "..." : text;
}
