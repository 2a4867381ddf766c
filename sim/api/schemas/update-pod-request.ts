/**
 * UpdatePodRequest: the body of `PATCH /v2/pods/{podId}`. Only the mutable fields of choices.md
 * are listed, all optional, and nothing else is accepted. Mount entries must be complete
 * (mount update rule 5); the other mount update rules need the pod and live in the validator.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Args, Disk, Env, Image, Ports, Registry } from "./container-config.ts";
import { CreateMounts } from "./mounts.ts";
import { Ref, STRICT, schemaId } from "./schema-helpers.ts";

export const UPDATABLE_POD_FIELDS = [
  "name", "image", "args", "disk", "ports", "env", "registry", "mounts", "locked", "globalNetworking",
] as const;

export const UpdatePodRequest = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1 })),
    image: Type.Optional(Image),
    args: Type.Optional(Args),
    disk: Type.Optional(Disk),
    ports: Type.Optional(Ports),
    env: Type.Optional(Env),
    registry: Type.Optional(Registry),
    mounts: Type.Optional(Ref(CreateMounts)),
    locked: Type.Optional(Type.Boolean()),
    globalNetworking: Type.Optional(Type.Boolean()),
  },
  { ...STRICT, $id: schemaId("UpdatePodRequest") },
);
export type UpdatePodRequest = Static<typeof UpdatePodRequest>;
