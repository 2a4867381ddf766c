// Handlers validate untrusted job input. A bad field ends the job as FAILED with a message that
// names the field and the accepted range, so readers throw InputError and each handler's plan()
// turns it into a fail plan at one place.

export class InputError extends Error {
  override readonly name = "InputError";
}

export type JsonObject = Readonly<Record<string, unknown>>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function has(obj: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key) && obj[key] !== undefined;
}

/** An integer field in [min, max]; `fallback` when absent, else absence is an error. */
export function readInt(
  obj: JsonObject,
  key: string,
  min: number,
  max: number,
  fallback?: number,
  prefix = "",
): number {
  if (!has(obj, key)) {
    if (fallback !== undefined) return fallback;
    throw new InputError(`${prefix}"${key}" is required: an integer from ${min} to ${max}`);
  }
  const v = obj[key];
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
    throw new InputError(`${prefix}"${key}" must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
  }
  return v;
}

/** A finite number field in [min, max]; `fallback` when absent. */
export function readNumber(obj: JsonObject, key: string, min: number, max: number, fallback: number): number {
  if (!has(obj, key)) return fallback;
  const v = obj[key];
  if (typeof v !== "number" || !Number.isFinite(v) || v < min || v > max) {
    throw new InputError(`"${key}" must be a number from ${min} to ${max}, got ${JSON.stringify(v)}`);
  }
  return v;
}

/** A required non-empty string field of at most maxLength UTF-16 units. */
export function readString(obj: JsonObject, key: string, maxLength: number): string {
  const v = obj[key];
  if (typeof v !== "string" || v.length === 0) {
    throw new InputError(`"${key}" is required: a non-empty string`);
  }
  if (v.length > maxLength) {
    throw new InputError(`"${key}" must be at most ${maxLength} characters, got ${v.length}`);
  }
  return v;
}
