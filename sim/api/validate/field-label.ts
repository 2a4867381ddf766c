/**
 * How a validator names a value in a message: a JSON pointer written the way a developer
 * would write the access (`/mounts/network/0/path` → `mounts.network[0].path`).
 */

export function pointerSegments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function fieldLabel(pointer: string): string {
  if (pointer.startsWith("?")) return `the query parameter ${pointer.slice(1)}`;
  const segments = pointerSegments(pointer);
  if (segments.length === 0) return "the request body";
  let out = "";
  for (const s of segments) {
    if (/^(0|[1-9][0-9]*)$/.test(s)) out += `[${s}]`;
    else if (IDENTIFIER.test(s)) out += out === "" ? s : `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

/**
 * The pointer with array indexes as `[]` and the keys of free-form maps (env) as `*`, to look
 * up what a field expects: `/ports/3` → `ports[]`, `/env/HOME` → `env.*`.
 */
export function fieldShape(pointer: string, mapFields: ReadonlySet<string> = new Set(["env"])): string {
  const segments = pointerSegments(pointer);
  const parts: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i] as string;
    const parent = segments[i - 1];
    if (parent !== undefined && mapFields.has(parent) && i === 1) parts.push(".*");
    else if (/^(0|[1-9][0-9]*)$/.test(s)) parts.push("[]");
    else parts.push(parts.length === 0 ? s : `.${s}`);
  }
  return parts.join("");
}

/** A short description of a JSON value for a message: `"abc"`, `42`, `an array`, `null`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return value.length > 60 ? `${JSON.stringify(value.slice(0, 57))}...` : JSON.stringify(value);
  return String(value);
}
