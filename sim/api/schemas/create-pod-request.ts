/**
 * CreatePodRequest: the body of createPod. Strict at every level the spec names ("Properties not
 * listed in the body schema are rejected; gpu and cpu objects also reject unlisted properties";
 * Mounts and its entries have "no extra properties").
 *
 * Rules the handler checks are deliberately not in the schema, because the spec or the emulator
 * answers them with 400 rather than the 422 of a schema failure: exactly one of gpu/cpu, at most
 * one mount kind, no persistent mount on a CPU pod, vCPU count a power of two and valid for the
 * flavor, and every id naming something that exists.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Cloud } from "./cloud.ts";
import { Args, Disk, Env, Image, Ports, Registry } from "./container-config.ts";
import { CreateCpuConfig } from "./cpu-config.ts";
import { CreateGpuConfig } from "./gpu-config.ts";
import { CreateMounts } from "./mounts.ts";
import { Ref, STRICT, schemaId } from "./schema-helpers.ts";

export const CreatePodRequest = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    image: Image,
    args: Type.Optional(Args),
    disk: Type.Optional(Disk),
    ports: Type.Optional(Ports),
    env: Type.Optional(Env),
    registry: Type.Optional(Registry),
    gpu: Type.Optional(Ref(CreateGpuConfig)),
    cpu: Type.Optional(Ref(CreateCpuConfig)),
    mounts: Type.Optional(Ref(CreateMounts)),
    cloud: Type.Optional(Ref(Cloud)),
    dataCenterIds: Type.Optional(Type.Array(Type.String(), { description: "Preferred data centers" })),
    globalNetworking: Type.Optional(Type.Boolean({ default: false })),
  },
  { ...STRICT, $id: schemaId("CreatePodRequest") },
);
export type CreatePodRequest = Static<typeof CreatePodRequest>;
