/** PodActionRequest: `{"action": "start" | "stop" | "restart" | "terminate"}`, no other keys. */
import { Type, type Static } from "@sinclair/typebox";
import { PodAction } from "./pod-action.ts";
import { Ref, STRICT, schemaId } from "./schema-helpers.ts";

export const PodActionRequest = Type.Object({ action: Ref(PodAction) }, { ...STRICT, $id: schemaId("PodActionRequest") });
export type PodActionRequest = Static<typeof PodActionRequest>;
