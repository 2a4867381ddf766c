/** ErrorResponse: the problem+json body of every REST error. */
import { Type, type Static } from "@sinclair/typebox";
import { schemaId } from "./schema-helpers.ts";

export const ErrorResponse = Type.Object(
  {
    title: Type.String({ description: "Short summary" }),
    status: Type.Integer({ description: "HTTP status code" }),
    detail: Type.String({ description: "Human-readable explanation" }),
    errors: Type.Optional(Type.Array(Type.String(), { description: "Individual request-validation failures" })),
  },
  { $id: schemaId("ErrorResponse") },
);
export type ErrorResponse = Static<typeof ErrorResponse>;
