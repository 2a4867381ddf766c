/**
 * Validating a target's answers against the JSON Schemas of the spec's records (sim/api/schemas):
 * response schemas accept extra fields, so another implementation's additions never fail a rule.
 */
import { createValidator, type SchemaValidator } from "../../../sim/api/schemas/index.ts";
import { SCHEMA_ID_PREFIX } from "../../../sim/api/schemas/schema-helpers.ts";

let validator: SchemaValidator | undefined;

/** The failures of `value` against the record `name` (e.g. "Pod"), as "<pointer>: <message>". */
export function schemaErrors(name: string, value: unknown): string[] {
  validator ??= createValidator();
  return validator.validate(`${SCHEMA_ID_PREFIX}${name}`, value).errors;
}

/**
 * Under the lenient profile, only the schema errors at the paths whose type or shape the rule's
 * sentence states (`stated`, matched against each error's `/path:` head); under strict, all of
 * them (the rest is the emulator's schema: docs/profiles.md).
 */
export function statedOnly(ctx: { readonly options: { readonly profile: string } }, errors: readonly string[], stated: RegExp): string[] {
  return ctx.options.profile === "strict" ? [...errors] : errors.filter((e) => stated.test(e));
}
