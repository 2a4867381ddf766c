/** PodStatus: the REST pod states (spec, States and transitions). */
import type { Static } from "@sinclair/typebox";
import { StringEnum, schemaId } from "./schema-helpers.ts";

export const POD_STATUSES = ["PROVISIONING", "STARTING", "RUNNING", "EXITED", "ERROR", "TERMINATED"] as const;

export const PodStatus = StringEnum(POD_STATUSES, { $id: schemaId("PodStatus") });
export type PodStatus = Static<typeof PodStatus>;
