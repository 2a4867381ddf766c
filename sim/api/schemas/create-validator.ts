/**
 * An ajv instance that knows every record schema by its `$id`, and a small API over it.
 *
 * `issues()` gives ajv's findings in a normalized form whose `path` is a JSON pointer to the
 * value at fault; for a missing or an unlisted property that is the property's own pointer
 * (`/gpu/id`), not its parent's, so that a report points at what to fix. `validate()` renders
 * the same findings as `"<pointer>: <message>"` strings.
 */
import { Ajv, type ErrorObject } from "ajv";
import ajvFormats from "ajv-formats";
import { allSchemas } from "./all-schemas.ts";

export interface SchemaIssue {
  /** JSON pointer to the value at fault ("" is the whole value). */
  readonly path: string;
  /** The JSON Schema keyword that failed (type, required, additionalProperties, minimum, ...). */
  readonly keyword: string;
  /** ajv's parameters of that keyword (`limit`, `type`, `allowedValues`, ...). */
  readonly params: Readonly<Record<string, unknown>>;
  /** ajv's message, made to read after the path. */
  readonly message: string;
  /** The schema object holding the failed keyword (its `properties` name what is allowed). */
  readonly parentSchema: Readonly<Record<string, unknown>> | undefined;
  /** The value at fault, when there is one (absent for a missing property). */
  readonly data: unknown;
}

export interface ValidationResult {
  readonly ok: boolean;
  readonly errors: string[];
}

export interface SchemaValidator {
  readonly ajv: Ajv;
  /** Whether `value` satisfies the schema `id`, and each failure as `"<pointer>: <message>"`. */
  validate(id: string, value: unknown): ValidationResult;
  /** Each failure of `value` against the schema `id`, normalized. Empty when valid. */
  issues(id: string, value: unknown): SchemaIssue[];
}

/** RFC 6901 escaping of one pointer segment. */
export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

function normalize(error: ErrorObject): SchemaIssue {
  const params = error.params as Record<string, unknown>;
  const parentSchema = error.parentSchema as Record<string, unknown> | undefined;
  if (error.keyword === "required") {
    const name = String(params.missingProperty);
    return { path: `${error.instancePath}/${escapePointerSegment(name)}`, keyword: "required", params, message: "is required", parentSchema, data: undefined };
  }
  if (error.keyword === "additionalProperties") {
    const name = String(params.additionalProperty);
    const data = (error.data as Record<string, unknown> | undefined)?.[name];
    return {
      path: `${error.instancePath}/${escapePointerSegment(name)}`,
      keyword: "additionalProperties",
      params,
      message: "is not an allowed property",
      parentSchema,
      data,
    };
  }
  return { path: error.instancePath, keyword: error.keyword, params, message: error.message ?? error.keyword, parentSchema, data: error.data };
}

export function createValidator(): SchemaValidator {
  // allErrors: a validator must list every violation, not the first. verbose: issues carry the
  // failing value and schema, which the messages need. strictRequired is off because
  // `oneOf: [{required: [gpu]}, {required: [cpu]}]` names properties declared one level up.
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true });
  ajvFormats.default(ajv);
  for (const schema of allSchemas) ajv.addSchema(schema);

  function issues(id: string, value: unknown): SchemaIssue[] {
    const check = ajv.getSchema(id);
    if (check === undefined) throw new RangeError(`No schema has the $id "${id}"; use one of allSchemas' ids.`);
    if (check(value)) return [];
    return (check.errors ?? []).map(normalize);
  }

  return {
    ajv,
    issues,
    validate(id, value) {
      const found = issues(id, value);
      return { ok: found.length === 0, errors: found.map((i) => `${i.path === "" ? "/" : i.path}: ${i.message}`) };
    },
  };
}
