/** PodList: the answer of listPods, `{"pods": [Pod, ...]}` (choices.md). */
import { Type, type Static } from "@sinclair/typebox";
import { Pod } from "./pod.ts";
import { Ref, schemaId } from "./schema-helpers.ts";

export const PodList = Type.Object({ pods: Type.Array(Ref(Pod)) }, { $id: schemaId("PodList") });
export type PodList = Static<typeof PodList>;
