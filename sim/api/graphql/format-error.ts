/**
 * A graphql-js error as the standard envelope entry `{message, locations?, path?, extensions:
 * {code, ...}}`. Every entry carries a code: the one the error was raised with, or `fallback`;
 * an error a resolver did not raise on purpose (a bug) is INTERNAL_SERVER_ERROR.
 */
import { GraphQLError } from "graphql";
import { GraphqlCode } from "./error-codes.ts";

export interface FormattedError {
  message: string;
  locations?: Array<{ line: number; column: number }>;
  path?: Array<string | number>;
  extensions: Record<string, unknown> & { code: string };
}

export function formatError(error: GraphQLError, fallback: string): FormattedError {
  const own = error.extensions ?? {};
  const unexpected = error.originalError !== undefined && !(error.originalError instanceof GraphQLError);
  const code = typeof own.code === "string" ? own.code : unexpected ? GraphqlCode.INTERNAL_SERVER_ERROR : fallback;
  const out: FormattedError = { message: error.message, extensions: { ...own, code } };
  if (error.locations && error.locations.length > 0) out.locations = error.locations.map((l) => ({ line: l.line, column: l.column }));
  if (error.path) out.path = [...error.path];
  return out;
}
