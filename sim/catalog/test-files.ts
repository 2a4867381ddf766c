/**
 * Test support (not part of the public surface): the bundled catalog files as fresh mutable
 * copies, so each test can break one thing and hand the result to validateCatalog.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BUNDLED_CATALOG_DIR } from "./load-catalog.ts";
import { CATALOG_FILES } from "./validate-catalog.ts";

// Read once; every call returns a deep copy.
const texts = new Map(CATALOG_FILES.map((file) => [file, readFileSync(join(BUNDLED_CATALOG_DIR, file), "utf8")]));

/** Tests reach into the parsed JSON freely, so it is typed loosely on purpose. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Files = Record<string, any>;

export function bundledFiles(): Files {
  return Object.fromEntries([...texts].map(([file, text]) => [file, JSON.parse(text) as unknown]));
}

export function bundledText(file: string): string {
  const text = texts.get(file);
  if (text === undefined) throw new Error(`no catalog file ${file}`);
  return text;
}
