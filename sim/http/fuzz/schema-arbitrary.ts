/**
 * fast-check arbitraries from the JSON Schemas of the served /openapi.json, so the fuzzer's
 * "valid" requests follow whatever the document says today (a library such as
 * json-schema-fast-check is not among the project's dependencies; this covers the keywords the
 * emulator's schemas use: $ref, type, properties, required, enum, const, anyOf/oneOf, items,
 * minimum/maximum, minLength/maxLength, additionalProperties).
 */
import fc from "fast-check";

type Schema = Record<string, any>;

export function schemaArbitrary(schema: Schema, components: Record<string, Schema>, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 8) return fc.constant(null);
  if (schema.$ref !== undefined) {
    const name = String(schema.$ref).split("/").pop()!;
    const target = components[name];
    return target === undefined ? fc.constant(null) : schemaArbitrary(target, components, depth + 1);
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives) && alternatives.length > 0) return fc.oneof(...alternatives.map((s: Schema) => schemaArbitrary(s, components, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? undefined : [schema.type];
  if (type !== undefined && type.length > 1) return fc.oneof(...type.map((t: string) => schemaArbitrary({ ...schema, type: t }, components, depth + 1)));
  switch (type?.[0]) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({ min: Math.max(schema.minimum ?? -1_000_000, -(2 ** 31)), max: Math.min(schema.maximum ?? 1_000_000, 2 ** 31) });
    case "number":
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case "string":
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 20, 40) });
    case "array":
      return fc.array(schema.items ? schemaArbitrary(schema.items, components, depth + 1) : fc.jsonValue(), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case "object":
    case undefined: {
      const props: Record<string, Schema> = schema.properties ?? {};
      if (Object.keys(props).length === 0) return type === undefined ? fc.jsonValue({ maxDepth: 2 }) : fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) record[k] = schemaArbitrary(v, components, depth + 1);
      return fc.record(record, { requiredKeys: (schema.required ?? []).filter((k: string) => k in props) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}
