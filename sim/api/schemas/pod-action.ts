/** PodAction: the values of a pod's `actions` list and of the action request. */
import type { Static } from "@sinclair/typebox";
import { StringEnum, schemaId } from "./schema-helpers.ts";

export const POD_ACTIONS = ["start", "stop", "restart", "terminate"] as const;

export const PodAction = StringEnum(POD_ACTIONS, { $id: schemaId("PodAction") });
export type PodAction = Static<typeof PodAction>;
