/**
 * Pod storage mounts. The response forms (Mounts, PersistentMount, NetworkMount) accept extra
 * properties like every response record; the request forms (CreateMounts, ...) have "no extra
 * properties" as the spec says, and serve both createPod and the PATCH of a pod, where partial
 * entries are not supported either (mount update rule 5).
 *
 * "At most one of persistent or network" is a response invariant here (`not`), but on requests
 * it is left to the validator: the spec gives it status 400, not the 422 of a schema failure.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Ref, STRICT, schemaId } from "./schema-helpers.ts";

const persistentFields = {
  size: Type.Integer({ minimum: 10, description: "GB" }),
  path: Type.String({ description: "Mount path in the container" }),
};
const networkFields = {
  volumeId: Type.String({ description: "ID of an existing network volume in the same data center as the pod" }),
  path: Type.String({ description: "Mount path in the container" }),
};
const NOT_BOTH = { not: { required: ["persistent", "network"] } };

export const PersistentMount = Type.Object(persistentFields, { $id: schemaId("PersistentMount") });
export type PersistentMount = Static<typeof PersistentMount>;

export const NetworkMount = Type.Object(networkFields, { $id: schemaId("NetworkMount") });
export type NetworkMount = Static<typeof NetworkMount>;

export const Mounts = Type.Object(
  {
    persistent: Type.Optional(Ref(PersistentMount)),
    network: Type.Optional(Type.Array(Ref(NetworkMount), { maxItems: 1 })),
  },
  { ...NOT_BOTH, $id: schemaId("Mounts") },
);
export type Mounts = Static<typeof Mounts>;

export const CreatePersistentMount = Type.Object(persistentFields, { ...STRICT, $id: schemaId("CreatePersistentMount") });
export type CreatePersistentMount = Static<typeof CreatePersistentMount>;

export const CreateNetworkMount = Type.Object(networkFields, { ...STRICT, $id: schemaId("CreateNetworkMount") });
export type CreateNetworkMount = Static<typeof CreateNetworkMount>;

export const CreateMounts = Type.Object(
  {
    persistent: Type.Optional(Ref(CreatePersistentMount)),
    network: Type.Optional(Type.Array(Ref(CreateNetworkMount), { maxItems: 1 })),
  },
  { ...STRICT, $id: schemaId("CreateMounts") },
);
export type CreateMounts = Static<typeof CreateMounts>;
