/**
 * The schema validator the request validators share. ajv compiles each schema once, on first
 * use; building it lazily keeps importing this folder cheap.
 */
import { createValidator, type SchemaValidator } from "../schemas/index.ts";

let shared: SchemaValidator | undefined;

export function sharedValidator(): SchemaValidator {
  shared ??= createValidator();
  return shared;
}
