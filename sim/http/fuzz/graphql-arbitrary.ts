/**
 * GraphQL documents for the fuzzer, drawn from the schema itself: each root query and mutation
 * field with arguments built from their input types (sometimes of the wrong type), a selection of
 * the return type's fields one level down, aliases; and hostile documents (deep nesting, many
 * aliases, fragment cycles, broken syntax, escapes).
 */
import fc from "fast-check";
import {
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from "graphql";

const scalarLiteral = (name: string): fc.Arbitrary<string> => {
  switch (name) {
    case "Int":
      return fc.integer({ min: -5, max: 100 }).map(String);
    case "Float":
      return fc.double({ min: -5, max: 100, noNaN: true }).map((x) => String(x));
    case "Boolean":
      return fc.boolean().map(String);
    default:
      return fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("NVIDIA GeForce RTX 4090", "cpu3c-2-4", "ubuntu:22.04", "COMMUNITY")).map((s) => JSON.stringify(s));
  }
};

function inputLiteral(type: GraphQLInputType, depth: number): fc.Arbitrary<string> {
  if (isNonNullType(type)) return inputLiteral(type.ofType, depth);
  if (isListType(type)) return fc.array(inputLiteral(type.ofType, depth + 1), { maxLength: 3 }).map((xs) => `[${xs.join(", ")}]`);
  if (isEnumType(type)) return fc.constantFrom(...type.getValues().map((v) => v.name));
  if (isInputObjectType(type)) {
    if (depth > 3) return fc.constant("{}");
    const fields = Object.values(type.getFields());
    return fc
      .tuple(...fields.map((f) => fc.option(inputLiteral(f.type, depth + 1), { freq: isNonNullType(f.type) ? 8 : 2 })))
      .map((vals) => `{${fields.flatMap((f, i) => (vals[i] === null ? [] : [`${f.name}: ${vals[i]}`])).join(", ")}}`);
  }
  return scalarLiteral(isScalarType(type) ? type.name : "String");
}

function selection(type: GraphQLOutputType, depth: number): fc.Arbitrary<string> {
  const named = getNamedType(type);
  if (!isObjectType(named)) return fc.constant("");
  const fields = Object.values(named.getFields()).filter((f) => f.args.every((a) => !isNonNullType(a.type)));
  if (fields.length === 0) return fc.constant("");
  return fc.subarray(fields, { minLength: 1, maxLength: Math.min(6, fields.length) }).chain((chosen) =>
    fc.tuple(...chosen.map((f) => (depth < 2 && isObjectType(getNamedType(f.type)) ? selection(f.type, depth + 1) : fc.constant("")))).map(
      (subs) => `{ ${chosen.map((f, i) => (isObjectType(getNamedType(f.type)) ? (subs[i] === "" ? "__typename" : `${f.name} ${subs[i]}`) : f.name)).join(" ")} }`,
    ),
  );
}

function fieldCall(field: GraphQLField<unknown, unknown>): fc.Arbitrary<string> {
  const args = field.args;
  return fc
    .tuple(fc.tuple(...args.map((a) => fc.option(inputLiteral(a.type, 0), { freq: isNonNullType(a.type) ? 9 : 2 }))), selection(field.type, 0))
    .map(([vals, sel]) => {
      const list = args.flatMap((a, i) => (vals[i] === null ? [] : [`${a.name}: ${vals[i]}`]));
      return `${field.name}${list.length > 0 ? `(${list.join(", ")})` : ""} ${sel}`;
    });
}

/** Documents a client could plausibly send: one to three root fields of one operation. */
export function validDocument(schema: GraphQLSchema): fc.Arbitrary<string> {
  const query = Object.values(schema.getQueryType()!.getFields());
  const mutation = Object.values(schema.getMutationType()?.getFields() ?? {});
  const op = (kind: string, fields: GraphQLField<unknown, unknown>[]) =>
    fc.array(fc.constantFrom(...fields).chain(fieldCall), { minLength: 1, maxLength: 3 }).map((calls) => `${kind} { ${calls.map((c, i) => `f${i}: ${c}`).join(" ")} }`);
  return mutation.length > 0 ? fc.oneof(op("query", query), op("mutation", mutation)) : op("query", query);
}

/** Documents built to hurt. */
export function hostileDocument(schema: GraphQLSchema): fc.Arbitrary<string> {
  const rootName = fc.constantFrom(...Object.keys(schema.getQueryType()!.getFields()));
  return fc.oneof(
    fc.integer({ min: 50, max: 6000 }).map((n) => `{ pod(input: {podId: ${"[".repeat(n)}"x"${"]".repeat(n)}}) { id } }`),
    fc.integer({ min: 50, max: 4000 }).map((n) => `{ ${"myself { ".repeat(n)}id${" }".repeat(n)} }`),
    fc.integer({ min: 50, max: 4000 }).map((n) => `{ pod(input: ${"{podId: ".repeat(n)}"x"${"}".repeat(n)}) { id } }`),
    fc.integer({ min: 2, max: 600 }).map((n) => `mutation { ${Array.from({ length: n }, (_, i) => `a${i}: podStop(input: {podId: "x${i}"}) { id }`).join(" ")} }`),
    fc.integer({ min: 2, max: 2000 }).chain((n) => rootName.map((r) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${r} { __typename }`).join(" ")} }`)),
    fc.constant("{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }"),
    fc.constant('{ pod(input: {podId: "\\u005f_proto__"}) { id } }'),
    fc.string({ maxLength: 200 }),
    fc.stringMatching(/^[{}()[\]:!$@.a-z"\\ ]{0,300}$/),
    fc.constant(`# ${"#".repeat(70_000)}\n{ myself { id } }`),
    fc.constant("subscription { myself { id } }"),
    fc.constant(`query Q($v: String) { pod(input: {podId: $v}) { id } } query R { myself { id } }`),
  );
}
