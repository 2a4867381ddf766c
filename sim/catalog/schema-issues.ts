/**
 * Validates one parsed catalog file against its schema (ajv 8, all errors) and turns ajv's
 * errors into issues that name the JSON pointer of the offending value and what was expected.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { TSchema } from "@sinclair/typebox";
import { pointer, show, type CatalogIssue } from "./catalog-error.ts";
import { describe } from "./describe-schema.ts";

type Schema = Record<string, unknown>;

const ajv = new Ajv({
  allErrors: true,
  // verbose: errors carry the failing schema and data, which the messages describe and show.
  verbose: true,
  discriminator: true,
  // `type: ["number", "null"]` is how nullable fields are written (see schema/common.ts).
  allowUnionTypes: true,
  strict: true,
});

// Compiling is the slow part of validation, and the schemas never change: compile each once.
const compiled = new WeakMap<TSchema, ValidateFunction>();

function validatorFor(schema: TSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

function childSchema(parent: unknown, property: string): Schema | undefined {
  const properties = (parent as Schema | undefined)?.properties as Record<string, Schema> | undefined;
  return properties?.[property];
}

function toIssue(file: string, e: ErrorObject): CatalogIssue {
  const at = e.instancePath;
  const parent = (e.parentSchema ?? {}) as Schema;
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required": {
      const name = String(params.missingProperty);
      const expected = childSchema(parent, name);
      const what = expected ? `; must be ${describe(expected)}` : "";
      return { file, pointer: at + pointer(name), message: `required property is missing${what}` };
    }
    case "additionalProperties": {
      const name = String(params.additionalProperty);
      const allowed = Object.keys((parent.properties ?? {}) as Schema).join(", ");
      const owner = typeof parent.title === "string" ? `a ${parent.title}` : "this object";
      return { file, pointer: at + pointer(name), message: `is not a property of ${owner} (allowed: ${allowed})` };
    }
    case "discriminator": {
      const tag = String(params.tag);
      const tags = ((parent.oneOf ?? []) as Schema[]).map((branch) => childSchema(branch, tag)?.const);
      const expected = `one of ${tags.map((v) => JSON.stringify(v)).join(", ")}`;
      const value = params.tagValue;
      const message = value === undefined ? `required property is missing; must be ${expected}` : `must be ${expected}, got ${show(value)}`;
      return { file, pointer: at + pointer(tag), message };
    }
    case "uniqueItems":
      return {
        file,
        pointer: at,
        message: `must not repeat items, got equal items at ${at}/${String(params.j)} and ${at}/${String(params.i)}`,
      };
    case "type":
    case "enum":
    case "const":
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
    case "minLength":
    case "maxLength":
    case "pattern":
    case "minItems":
    case "maxItems":
      return { file, pointer: at, message: `must be ${describe(parent)}, got ${show(e.data)}` };
    default:
      return { file, pointer: at, message: `${e.message ?? "is invalid"}, got ${show(e.data)}` };
  }
}

/** The issues of one file; empty when it matches its schema. Messages at one pointer are deduplicated. */
export function schemaIssues(file: string, schema: TSchema, data: unknown): CatalogIssue[] {
  const validate = validatorFor(schema);
  if (validate(data)) return [];
  const seen = new Set<string>();
  const issues: CatalogIssue[] = [];
  for (const error of validate.errors ?? []) {
    // A failed `oneOf` repeats what its chosen branch already reported.
    if (error.keyword === "oneOf") continue;
    const issue = toIssue(file, error);
    const id = `${issue.pointer}\u0000${issue.message}`;
    if (!seen.has(id)) {
      seen.add(id);
      issues.push(issue);
    }
  }
  return issues;
}
