/**
 * loadCatalog: the only code in cpsim that reads catalog files. It reads every file of the
 * directory (the bundled fixtures/catalog by default), reports unreadable and malformed files
 * with their line and column, and hands the parsed data to validateCatalog.
 */
import { readFileSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { packagePath } from "../package-root.ts";
import type { Catalog } from "./catalog.ts";
import { CatalogError, type CatalogIssue } from "./catalog-error.ts";
import { CATALOG_FILES, fileLabel, validateCatalog } from "./validate-catalog.ts";
import { jsonErrorOffset, lineColumn } from "./json-error-position.ts";

/** The catalog shipped with cpsim, resolved from this module so it works from any cwd. */
export const BUNDLED_CATALOG_DIR = packagePath("fixtures", "catalog") + sep;
const BUNDLED_LABEL = "fixtures/catalog";

/** Parses one file's text; a syntax error becomes an issue naming its line and column. */
export function parseCatalogJson(text: string, file: string): { value: unknown } | { issue: CatalogIssue } {
  // Editors on some systems write a byte-order mark, which JSON.parse rejects; it carries no data.
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  try {
    return { value: JSON.parse(body) as unknown };
  } catch (e) {
    let offset: number | undefined;
    try {
      offset = jsonErrorOffset(body);
    } catch {
      // Nesting deep enough to exhaust the scanner's stack: report the error without a position.
    }
    const where = offset === undefined ? "" : (({ line, column }) => ` at line ${line}, column ${column}`)(lineColumn(body, offset));
    return { issue: { file, message: `malformed JSON${where}: ${(e as Error).message}` } };
  }
}

/**
 * @param dir a catalog directory; default: the bundled fixtures/catalog. Messages name files as
 * `<dir as given>/<file>`.
 */
export function loadCatalog(dir?: string): Catalog {
  const path = dir ?? BUNDLED_CATALOG_DIR;
  const dirLabel = dir ?? BUNDLED_LABEL;
  let isDirectory = false;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    // Reported just below, as for a path that is not a directory.
  }
  if (!isDirectory) {
    throw new CatalogError([{ file: dirLabel, message: `is not a catalog directory (it must hold ${CATALOG_FILES.join(", ")})` }]);
  }

  const files: Record<string, unknown> = {};
  const issues: CatalogIssue[] = [];
  for (const file of CATALOG_FILES) {
    const label = fileLabel(dirLabel, file);
    let text: string;
    try {
      text = readFileSync(join(path, file), "utf8");
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      issues.push({ file: label, message: code === "ENOENT" ? "file is missing; every catalog file is required" : `cannot be read: ${(e as Error).message}` });
      continue;
    }
    const parsed = parseCatalogJson(text, label);
    if ("issue" in parsed) issues.push(parsed.issue);
    else files[file] = parsed.value;
  }
  if (issues.length > 0) throw new CatalogError(issues);
  return validateCatalog(files, dirLabel);
}
