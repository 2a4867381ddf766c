/** Cloud (enum): where a pod's hardware comes from. */
import type { Static } from "@sinclair/typebox";
import { StringEnum, schemaId } from "./schema-helpers.ts";

export const CLOUDS = ["SECURE", "COMMUNITY"] as const;

export const Cloud = StringEnum(CLOUDS, {
  $id: schemaId("Cloud"),
  description: "SECURE: provider-owned datacenter hardware; COMMUNITY: community-hosted hardware.",
});
export type Cloud = Static<typeof Cloud>;
