/**
 * Building blocks shared by the catalog's schemas.
 *
 * The helpers below emit plain JSON Schema keywords (`type: [T, "null"]`, `enum`) instead of
 * TypeBox's `anyOf` unions on purpose: ajv then reports one error per bad value, at the value's
 * own path, which is what lets the loader say "must be number >= 0 or null, got ..." instead of
 * three nested union failures.
 */
import { Type, type Static, type TSchema, type TUnsafe } from "@sinclair/typebox";

/** An identifier referenced from other collections: any non-empty string. */
export const Id = Type.String({ minLength: 1 });

/** A human-readable name. */
export const Name = Type.String({ minLength: 1 });

/** A string enumeration as one `enum` keyword (TypeBox's literal unions compile to `anyOf`). */
export function StringEnum<const T extends readonly string[]>(values: T): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: "string", enum: [...values] });
}

/**
 * An integer enumeration as one `enum` keyword. Typed as plain `number`, not a literal union, so
 * that callers can ask `vcpuCounts.includes(n)` of any number they were sent.
 */
export function IntegerEnum(values: readonly number[]): TUnsafe<number> {
  return Type.Unsafe<number>({ type: "integer", enum: [...values] });
}

/** `schema` or null, as `type: [schema.type, "null"]` with the schema's other keywords kept. */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const type: unknown = schema.type;
  if (typeof type !== "string") throw new TypeError("Nullable needs a schema with a single `type`");
  // Object.entries drops TypeBox's symbol keys, leaving the plain JSON Schema ajv reads.
  const plain = Object.fromEntries(Object.entries(schema));
  const options: Record<string, unknown> = { ...plain, type: [type, "null"] };
  if (Array.isArray(plain.enum)) options.enum = [...plain.enum, null];
  return Type.Unsafe<Static<T> | null>(options);
}

export const CLOUDS = ["SECURE", "COMMUNITY"] as const;
export const Cloud = StringEnum(CLOUDS);

/** CUDA versions are written major.minor, as the platform lists them ("12.4"). */
export const CudaVersion = Type.String({ pattern: "^[0-9]+\\.[0-9]+$" });

/** A price in USD per hour, or null where that offer does not exist. */
export const Price = Nullable(Type.Number({ minimum: 0 }));

/**
 * The top level of every catalog file: `{ "$comment"?: string, "<key>": [item, ...] }`.
 * The optional `$comment` lets a file say where its figures come from.
 */
export function CollectionFile(key: string, item: TSchema): TSchema {
  return Type.Object(
    {
      $comment: Type.Optional(Type.String()),
      [key]: Type.Array(item),
    },
    { additionalProperties: false },
  );
}
