/** Operations about the API itself: the OpenAPI document. */
import { packageVersion } from "../../package-root.ts";
import type { OperationTable } from "../op-context.ts";
import { json } from "../json-response.ts";
import { respond } from "../types.ts";
import { openApiDocument } from "../openapi.ts";

let cached: unknown;

export const metaOperations: OperationTable = {
  openapi: () => respond(json(200, (cached ??= openApiDocument(packageVersion())))),
};
