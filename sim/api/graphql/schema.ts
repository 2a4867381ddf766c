/**
 * The executable schema, built once at module load from the SDL. Resolvers are not attached to
 * the schema: the root value (root-value.ts) answers the Query and Mutation fields, and nested
 * fields are read from the objects it returns (a function-valued property is called with the
 * field's arguments, which is how `lowestPrice(input)` works).
 */
import { assertValidSchema, buildSchema, type GraphQLSchema } from "graphql";
import { appsSchemaSdl } from "./apps-schema-sdl.ts";
import { resourceSchemaSdl } from "./resource-schema-sdl.ts";
import { schemaSdl } from "./schema-sdl.ts";

export const graphqlSchema: GraphQLSchema = buildSchema(schemaSdl + resourceSchemaSdl + appsSchemaSdl);
assertValidSchema(graphqlSchema);
