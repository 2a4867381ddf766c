/**
 * validateCatalog: parsed catalog files in, a frozen `Catalog` out, or a CatalogError listing
 * every problem. Pure (no I/O), so tests and users who build a catalog in code use it directly;
 * loadCatalog reads the files and calls it.
 *
 * Order matters: the schema pass runs on every file first, and the cross-reference passes run
 * only on a catalog whose every file is well-formed, because they read fields by their types.
 */
import type { Catalog } from "./catalog.ts";
import { COLLECTIONS } from "./collections.ts";
import { CatalogError, type CatalogIssue } from "./catalog-error.ts";
import { schemaIssues } from "./schema-issues.ts";
import { checkUnique } from "./check-unique.ts";
import { checkReferences } from "./check-references.ts";
import { checkConsistency } from "./check-consistency.ts";
import { deepFreeze } from "./deep-readonly.ts";

export const CATALOG_FILES: readonly string[] = COLLECTIONS.map((c) => c.file);

/** `dir/file` for messages; the label is the directory as the user named it. */
export function fileLabel(dirLabel: string, file: string): string {
  return dirLabel === "" ? file : `${dirLabel.replace(/[\\/]+$/, "")}/${file}`;
}

/**
 * @param files parsed JSON by file name ("gpu-types.json", ...); every catalog file is required
 * @param dirLabel how messages name the directory the files came from
 */
export function validateCatalog(files: Readonly<Record<string, unknown>>, dirLabel = "catalog"): Catalog {
  const label = (file: string): string => fileLabel(dirLabel, file);
  const issues: CatalogIssue[] = [];
  for (const name of Object.keys(files)) {
    if (!CATALOG_FILES.includes(name)) {
      issues.push({ file: label(name), message: `is not a catalog file (the catalog files are ${CATALOG_FILES.join(", ")})` });
    }
  }
  for (const { file, schema } of COLLECTIONS) {
    if (!Object.hasOwn(files, file)) {
      issues.push({ file: label(file), message: "file is missing; every catalog file is required" });
      continue;
    }
    issues.push(...schemaIssues(label(file), schema, files[file]));
  }
  if (issues.length > 0) throw new CatalogError(issues);

  // A copy, so that freezing does not reach into the caller's objects.
  const catalog = Object.fromEntries(
    COLLECTIONS.map(({ file, key }) => [key, structuredClone((files[file] as Record<string, unknown>)[key])]),
  ) as unknown as Catalog;

  for (const check of [checkUnique, checkReferences, checkConsistency]) {
    for (const issue of check(catalog)) issues.push({ ...issue, file: label(issue.file) });
  }
  if (issues.length > 0) throw new CatalogError(issues);
  return deepFreeze(catalog);
}
