/**
 * Building blocks of the record schemas.
 *
 * Every named record gets a stable `$id` of the form `cpsim:<Name>`, and records refer to one
 * another by `$ref` to that id rather than by embedding a copy: the OpenAPI document can then
 * turn each id into one component, and ajv never sees the same `$id` twice.
 *
 * Enumerations and nullable values are written as one `enum` keyword and a `type` array instead
 * of TypeBox's `anyOf` unions, so that ajv reports one error per bad value at the value's own
 * path (which is what the validators map onto rule ids).
 */
import { Type, type Static, type TSchema, type TUnsafe } from "@sinclair/typebox";

export const SCHEMA_ID_PREFIX = "cpsim:";

/** The `$id` of the record called `name`. */
export function schemaId(name: string): string {
  return `${SCHEMA_ID_PREFIX}${name}`;
}

/** A `$ref` to a named record, typed as that record. */
export function Ref<T extends TSchema>(schema: T): TUnsafe<Static<T>> {
  const id = schema.$id;
  if (typeof id !== "string") throw new TypeError("Ref needs a schema with an $id");
  return Type.Unsafe<Static<T>>(Type.Ref(id));
}

/** A `$ref` to a named record, or null. */
export function NullableRef<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const id = schema.$id;
  if (typeof id !== "string") throw new TypeError("NullableRef needs a schema with an $id");
  return Type.Unsafe<Static<T> | null>({ anyOf: [{ $ref: id }, { type: "null" }] });
}

/** A string enumeration as one `enum` keyword. */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: "string", enum: [...values] });
}

/** `schema` or null, as `type: [schema.type, "null"]` with the schema's other keywords kept. */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const type: unknown = schema.type;
  if (typeof type !== "string") throw new TypeError("Nullable needs a schema with a single `type`");
  // Object.entries drops TypeBox's symbol keys, leaving the plain JSON Schema ajv reads.
  const plain = Object.fromEntries(Object.entries(schema));
  return Type.Unsafe<Static<T> | null>({ ...plain, type: [type, "null"] });
}

/** A date-time string (RFC 3339, checked by ajv-formats). */
export const DateTime = Type.String({ format: "date-time" });

/** Any JSON object, its members unconstrained (job inputs, s3Config). */
export const AnyObject = Type.Unsafe<Record<string, unknown>>({ type: "object" });

/** Options of a request object that rejects unlisted properties (CreatePodRequest rule 1). */
export const STRICT = { additionalProperties: false } as const;
