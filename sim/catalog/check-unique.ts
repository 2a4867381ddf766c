/**
 * Uniqueness across the catalog: ids within every collection, API keys across all accounts
 * (a key must resolve to one account), and endpoint ids together with model slugs (both are
 * the `<endpoint_id>` of a job URL, so one name must not mean two endpoints).
 */
import type { Catalog } from "./catalog.ts";
import { COLLECTIONS } from "./collections.ts";
import { pointer, show, type CatalogIssue } from "./catalog-error.ts";

interface Named {
  readonly value: string;
  readonly file: string;
  readonly pointer: string;
}

function duplicates(names: readonly Named[], what: string): CatalogIssue[] {
  const first = new Map<string, Named>();
  const issues: CatalogIssue[] = [];
  for (const n of names) {
    const earlier = first.get(n.value);
    if (earlier) {
      const where = earlier.file === n.file ? earlier.pointer : `${earlier.file} ${earlier.pointer}`;
      issues.push({ file: n.file, pointer: n.pointer, message: `must be a unique ${what}, got ${show(n.value)} (also at ${where})` });
    } else first.set(n.value, n);
  }
  return issues;
}

export function checkUnique(catalog: Catalog): CatalogIssue[] {
  const issues: CatalogIssue[] = [];
  for (const { file, key } of COLLECTIONS) {
    const items = catalog[key] as readonly { readonly id: string }[];
    const names = items.map((item, i) => ({ value: item.id, file, pointer: pointer(key, i, "id") }));
    issues.push(...duplicates(names, `id in ${file}`));
  }
  const keys = catalog.accounts.flatMap((a, i) =>
    a.keys.map((k, j) => ({ value: k.key, file: "accounts.json", pointer: pointer("accounts", i, "keys", j, "key") })),
  );
  issues.push(...duplicates(keys, "API key across accounts"));
  // Ids are already unique among themselves; here a slug may not repeat an id or another slug.
  const routeNames: Named[] = catalog.endpoints.map((e, i) => ({ value: e.id, file: "endpoints.json", pointer: pointer("endpoints", i, "id") }));
  const slugs = catalog.endpoints.flatMap((e, i) =>
    e.slug === null ? [] : [{ value: e.slug, file: "endpoints.json", pointer: pointer("endpoints", i, "slug") }],
  );
  const slugIssues = duplicates([...routeNames, ...slugs], "endpoint id or model slug (they share the job URL path)");
  issues.push(...slugIssues.filter((issue) => issue.pointer?.endsWith("/slug")));
  return issues;
}
