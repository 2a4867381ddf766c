/** Operations about the API itself: the OpenAPI document. */
import { readFileSync } from "node:fs";
import type { OperationTable } from "../op-context.ts";
import { json } from "../json-response.ts";
import { respond } from "../types.ts";
import { openApiDocument } from "../openapi.ts";

const version = (JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string }).version;
let cached: unknown;

export const metaOperations: OperationTable = {
  openapi: () => respond(json(200, (cached ??= openApiDocument(version)))),
};
