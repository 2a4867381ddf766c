/**
 * The GraphQL routes of the route table: `graphql` (POST /graphql with a JSON body) and
 * `graphqlGet` (GET /graphql?query=...; queries only). PlatformApi has already authenticated the
 * caller (401) and applied the rate limit (429); the read-only check is made here, per operation
 * type, since a read-only key may still query.
 */
import { respond } from "../types.ts";
import type { OperationTable } from "../op-context.ts";
import { GraphqlCode } from "./error-codes.ts";
import { executeGraphql } from "./execute-graphql.ts";
import { originOf } from "./resolver-context.ts";
import { json } from "../json-response.ts";
import { paramsFromQuery } from "./request-params.ts";

export const graphqlOperations: OperationTable = Object.freeze({
  graphql: (ctx) => respond(executeGraphql(ctx.platform, ctx.principal, ctx.request.body, ctx.now, { method: "POST", origin: originOf(ctx.request.headers["host"]) })),
  graphqlGet: (ctx) => {
    const params = paramsFromQuery(ctx.request.query);
    if (!params.ok) return respond(json(400, { errors: [{ message: params.message, extensions: { code: GraphqlCode.BAD_REQUEST } }] }));
    return respond(executeGraphql(ctx.platform, ctx.principal, params.params, ctx.now, { method: "GET", origin: originOf(ctx.request.headers["host"]) }));
  },
});
