/**
 * Reading a request body safely. Bodies come from JSON.parse, where a key such as `__proto__`
 * is an ordinary own property; reading only own properties, and copying into fresh objects,
 * keeps such keys from ever reaching an object's prototype.
 */

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value[key]` when it is the object's own property, else undefined. */
export function own(value: unknown, key: string): unknown {
  return isPlainObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

export function has(value: unknown, key: string): boolean {
  return isPlainObject(value) && Object.hasOwn(value, key);
}

/** Keys that alter an object's prototype when merged naively; never accepted as names. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** A fresh object holding the own string-valued members of `value` (an env map). */
export function copyStringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isPlainObject(value)) return out;
  for (const [key, v] of Object.entries(value)) {
    // defineProperty, not assignment: even a key named like a prototype accessor stays data.
    if (typeof v === "string") Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
