// GraphQL at /graphql: the schema, the limits, the route operations and the transport-free executor.
export { graphqlOperations } from "./operations.ts";
export { executeGraphql } from "./execute-graphql.ts";
export type { ExecuteOptions, GraphqlRequest } from "./execute-graphql.ts";
export { graphqlSchema } from "./schema.ts";
export { schemaSdl } from "./schema-sdl.ts";
export { defaultGraphqlLimits, limitRule, measureOperation, QUERY_TOO_COMPLEX } from "./limits.ts";
export type { GraphqlLimits } from "./limits.ts";
export { GraphqlCode, userError } from "./error-codes.ts";
export { paramsFromBody, paramsFromQuery } from "./request-params.ts";
export type { GraphqlParams } from "./request-params.ts";
// The official Python client's documents, verbatim, for tests and the conformance suite.
export * from "./python-client-documents.ts";
export * from "./python-client-resource-documents.ts";
export { graphqlResourceSchemas, GraphqlEndpoint, GraphqlNetworkVolume, GraphqlPodTemplate, GraphqlRegistryAuth } from "./resource-record-schemas.ts";
