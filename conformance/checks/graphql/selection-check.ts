/**
 * Whether an answer holds what its document selected: every field of the selection set (under
 * its alias, when it has one) at every level, in every element of a list. A null value ends
 * the walk there (GraphQL fields are nullable unless the schema says otherwise; whether a null
 * is acceptable is each rule's own question). Extra keys are never a fault: the spec leaves
 * them open. The document is parsed with graphql-js, so the check and the request agree.
 */
import { Kind, parse, type SelectionSetNode } from "graphql";
import { isObj } from "./json-shape.ts";

/** The first `limit` paths of selected fields missing from `data`, e.g. `gpuTypes[0].lowestPrice.stockStatus`. */
export function missingSelections(document: string, data: unknown, limit = 10): string[] {
  const doc = parse(document);
  const op = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (!op || op.kind !== Kind.OPERATION_DEFINITION) return [];
  const out: string[] = [];
  walk(op.selectionSet, data, "", out, limit);
  return out;
}

function walk(set: SelectionSetNode, value: unknown, path: string, out: string[], limit: number): void {
  if (out.length >= limit || value === null || value === undefined) return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => walk(set, v, `${path}[${i}]`, out, limit));
    return;
  }
  if (!isObj(value)) {
    out.push(`${path || "data"} (an object was expected, got ${JSON.stringify(value)})`);
    return;
  }
  for (const sel of set.selections) {
    if (out.length >= limit) return;
    if (sel.kind === Kind.INLINE_FRAGMENT) {
      walk(sel.selectionSet, value, path, out, limit);
      continue;
    }
    if (sel.kind !== Kind.FIELD) continue;
    const key = sel.alias?.value ?? sel.name.value;
    const at = path ? `${path}.${key}` : key;
    if (!Object.hasOwn(value, key)) out.push(at);
    else if (sel.selectionSet) walk(sel.selectionSet, value[key], at, out, limit);
  }
}
