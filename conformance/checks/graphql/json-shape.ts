/** Small readers of untyped JSON answers, shared by the GraphQL checks. */

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A value as a failure message quotes it. */
export const show = (v: unknown): string => (v === undefined ? "nothing" : JSON.stringify(v));

/** The keys of `keys` that `obj` does not hold (a key whose value is null is held). */
export function missingKeys(obj: Obj, keys: readonly string[]): string[] {
  return keys.filter((k) => !Object.hasOwn(obj, k));
}

export const nonEmptyString = (v: unknown): v is string => typeof v === "string" && v !== "";
