import t from "tap";
import { Type } from "@sinclair/typebox";
import { describe } from "./describe-schema.ts";
import { Nullable, StringEnum } from "./schema/common.ts";

t.test("reads schemas as expectations", async (t) => {
  t.equal(describe(Type.Integer({ minimum: 1 })), "integer >= 1");
  t.equal(describe(Type.Integer({ minimum: 1, maximum: 16 })), "integer >= 1 and <= 16");
  t.equal(describe(Type.Number({ exclusiveMinimum: 0 })), "number > 0");
  t.equal(describe(Type.String({ minLength: 1 })), "non-empty string");
  t.equal(describe(Type.String({ pattern: "^a$" })), "string matching /^a$/");
  t.equal(describe(Type.Boolean()), "boolean");
  t.equal(describe(StringEnum(["a", "b"])), 'one of "a", "b"');
  t.equal(describe(Type.Literal("gpu")), '"gpu"');
  t.equal(describe(Nullable(Type.Number({ minimum: 0 }))), "number >= 0 or null");
  t.equal(describe(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, uniqueItems: true })), "array of non-empty strings with at least 1 item without duplicates");
  t.equal(describe(Type.Array(Type.Object({}, { title: "Host" }))), "array of Host objects");
  t.equal(describe(Type.Object({ hosts: Type.Array(Type.String()) })), 'object with property "hosts"');
});
