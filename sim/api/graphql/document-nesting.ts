/**
 * How deeply a GraphQL document nests its brackets, measured on the text before it is parsed.
 * graphql-js parses (and later validates and coerces) recursively, so a document of a few
 * thousand nested `[`, `{` or `(` overflows the stack; the token limit alone still allows about
 * 5,000 levels. Selection sets, argument objects, lists and parentheses all count, since each
 * is a level of recursion somewhere; strings (block strings too) and comments are skipped.
 */

/** The deepest bracket nesting of `query`, counted up to `cap + 1` (the scan stops there). */
export function documentNesting(query: string, cap: number): number {
  let depth = 0;
  let max = 0;
  const n = query.length;
  for (let i = 0; i < n; i++) {
    const c = query.charCodeAt(i);
    if (c === 0x7b /* { */ || c === 0x5b /* [ */ || c === 0x28 /* ( */) {
      if (++depth > max) {
        max = depth;
        if (max > cap) return max;
      }
    } else if (c === 0x7d || c === 0x5d || c === 0x29) {
      if (depth > 0) depth--;
    } else if (c === 0x23 /* # */) {
      while (i < n && query.charCodeAt(i) !== 0x0a && query.charCodeAt(i) !== 0x0d) i++;
    } else if (c === 0x22 /* " */) {
      if (query.startsWith('"""', i)) {
        // Block string: ends at the next unescaped """.
        i += 3;
        while (i < n && !(query.startsWith('"""', i) && query.charCodeAt(i - 1) !== 0x5c)) i++;
        i += 2;
      } else {
        for (i++; i < n; i++) {
          const s = query.charCodeAt(i);
          if (s === 0x5c) i++;
          else if (s === 0x22 || s === 0x0a) break;
        }
      }
    }
  }
  return max;
}
