/**
 * The `extensions.code` values of GraphQL errors, in one place so the emulator, its tests and the
 * conformance suite name them alike. Names follow the common GraphQL server convention
 * (BAD_USER_INPUT, FORBIDDEN, ...); the spec leaves GraphQL errors open, so these are choices.
 */
import { GraphQLError } from "graphql";

export const GraphqlCode = Object.freeze({
  /** The HTTP request is not a GraphQL request: no string `query`, bad `variables` ... (400). */
  BAD_REQUEST: "BAD_REQUEST",
  /** The document does not parse, or has more tokens than allowed (400). */
  PARSE_FAILED: "GRAPHQL_PARSE_FAILED",
  /** The document does not validate against the schema (400). */
  VALIDATION_FAILED: "GRAPHQL_VALIDATION_FAILED",
  /** Too deep or too many fields (400), see limits.ts. */
  QUERY_TOO_COMPLEX: "QUERY_TOO_COMPLEX",
  /** The query string is larger than the document limit (400). */
  QUERY_TOO_LARGE: "QUERY_TOO_LARGE",
  /** `operationName` names no operation, or is needed and missing (400). */
  OPERATION_RESOLUTION_FAILURE: "OPERATION_RESOLUTION_FAILURE",
  /** A mutation sent with GET (405). */
  METHOD_NOT_ALLOWED: "METHOD_NOT_ALLOWED",
  /** A mutation with a read-only key (403). */
  FORBIDDEN: "FORBIDDEN",
  /** An argument the resolver refuses (HTTP 200, in `errors`). */
  BAD_USER_INPUT: "BAD_USER_INPUT",
  /** No pod with that id in the caller's account (200, in `errors`). */
  NOT_FOUND: "NOT_FOUND",
  /** The pod's status does not allow the action, or its host's GPUs were taken (200, in `errors`). */
  CONFLICT: "CONFLICT",
  /** The scheduler found no host: "There are no longer any instances available ..." (200, in `errors`). */
  NO_CAPACITY: "NO_CAPACITY",
  /** The account holds its limit of pods (200, in `errors`). */
  POD_LIMIT: "POD_LIMIT",
  /** A resolver failed unexpectedly: a bug in the emulator (200, in `errors`). */
  INTERNAL_SERVER_ERROR: "INTERNAL_SERVER_ERROR",
} as const);

export type GraphqlCode = (typeof GraphqlCode)[keyof typeof GraphqlCode];

/** An error a resolver throws; graphql-js places it in `errors` with its path. */
export function userError(code: GraphqlCode, message: string, extensions: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...extensions } });
}
