/** PurgeResponse: how many queued jobs purge-queue removed. */
import { Type, type Static } from "@sinclair/typebox";
import { schemaId } from "./schema-helpers.ts";

export const PurgeResponse = Type.Object({ removed: Type.Integer(), status: Type.String() }, { $id: schemaId("PurgeResponse") });
export type PurgeResponse = Static<typeof PurgeResponse>;
