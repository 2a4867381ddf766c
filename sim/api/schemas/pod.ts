/**
 * Pod: the response of createPod, getPod, updatePod and the pod actions. Response records accept
 * extra properties (another implementation may add fields), but every field the spec lists is
 * required and typed as it says. A GPU pod carries `gpu`, a CPU pod `cpu`, never both (`oneOf`).
 */
import { Type, type Static } from "@sinclair/typebox";
import { Cloud } from "./cloud.ts";
import { Args, Disk, Env, Image, Ports, Registry } from "./container-config.ts";
import { CpuConfig } from "./cpu-config.ts";
import { GpuConfig } from "./gpu-config.ts";
import { Mounts } from "./mounts.ts";
import { PodAction } from "./pod-action.ts";
import { PodGlobalNetworking } from "./pod-global-networking.ts";
import { PodRuntime } from "./pod-runtime.ts";
import { PodStatus } from "./pod-status.ts";
import { DateTime, Nullable, NullableRef, Ref, schemaId } from "./schema-helpers.ts";

export const Pod = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    status: Ref(PodStatus),
    actions: Type.Array(Ref(PodAction), { description: "The state transitions valid for the current status" }),
    image: Image,
    args: Args,
    disk: Disk,
    mounts: Ref(Mounts),
    ports: Ports,
    env: Env,
    registry: Registry,
    gpu: Type.Optional(Ref(GpuConfig)),
    cpu: Type.Optional(Ref(CpuConfig)),
    cloud: Ref(Cloud),
    dataCenterId: Nullable(Type.String({ description: "Assigned by the scheduler" })),
    template: Nullable(Type.String({ description: "ID of the template the pod was created from" })),
    cost: Type.Number({ description: "USD per hour; 0.0 when EXITED or TERMINATED" }),
    locked: Type.Boolean({ description: "When true the pod cannot be stopped or reset" }),
    globalNetworking: Ref(PodGlobalNetworking),
    runtime: NullableRef(PodRuntime),
    createdAt: DateTime,
    startedAt: Nullable(DateTime),
  },
  {
    $id: schemaId("Pod"),
    oneOf: [{ required: ["gpu"] }, { required: ["cpu"] }],
  },
);
export type Pod = Static<typeof Pod>;

/** The names the spec lists under "Required in the response". */
export const POD_REQUIRED_FIELDS = [
  "id", "name", "status", "actions", "image", "args", "disk", "mounts", "ports", "env", "registry", "cloud",
  "dataCenterId", "template", "cost", "locked", "runtime", "createdAt", "startedAt", "globalNetworking",
] as const;
