/** PodGlobalNetworking: `ip` and `internalDns` are present only when `enabled`. */
import { Type, type Static } from "@sinclair/typebox";
import { schemaId } from "./schema-helpers.ts";

export const PodGlobalNetworking = Type.Object(
  {
    enabled: Type.Boolean({ description: "Derived from whether the pod has an assigned global-network address" }),
    ip: Type.Optional(Type.String()),
    internalDns: Type.Optional(Type.String({ description: "<pod_id>.<internal_domain>" })),
  },
  {
    $id: schemaId("PodGlobalNetworking"),
    // "Present only when enabled": a disabled pod carries neither field.
    if: { properties: { enabled: { const: false } } },
    then: { not: { anyOf: [{ required: ["ip"] }, { required: ["internalDns"] }] } },
  },
);
export type PodGlobalNetworking = Static<typeof PodGlobalNetworking>;
