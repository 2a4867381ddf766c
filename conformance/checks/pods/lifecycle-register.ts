/**
 * Registers the pod rules judged over time by the lifecycle model as one group: one model run
 * with every selected rule's checker after every step, each violation attributed to its own
 * rule. Rules that need a setup the model does not make (a locked pod, a host filled up, broken
 * action bodies, unknown ids) have checks of their own, registered in the files named after them.
 */
import type { CheckGroup } from "../../check.ts";
import { checks } from "../../check-registry.ts";
import type { InvariantChecker } from "./lifecycle-observation.ts";
import {
  actionsEnum, actionsMatchStatus, costZeroWhenStopped, globalNetworkingDnsForm, globalNetworkingEnabledDerived,
  globalNetworkingShape, gpuXorCpu, networkVolumeSameDataCenter, preferredDataCenter, runtimeAvailableWhenRunning,
  runtimeNullUnlessRunning, statusEnum,
} from "./lifecycle-invariants.ts";
import { actionAllowedInStatus, actionResponseStatus, deleteNoContent, listShape } from "./lifecycle-operations.ts";
import { runLifecycleModel, type ModelMember } from "./lifecycle-run.ts";
import { transitionLegal } from "./lifecycle-transitions.ts";

const modelRules: ReadonlyArray<readonly [string, InvariantChecker]> = [
  ["pods.runtime-null-unless-running", runtimeNullUnlessRunning],
  ["pods.runtime-available-when-running", runtimeAvailableWhenRunning],
  ["pods.cost-zero-when-stopped", costZeroWhenStopped],
  ["pods.status-enum", statusEnum],
  ["pods.actions-enum", actionsEnum],
  ["pods.actions-match-status", actionsMatchStatus],
  ["pods.gpu-xor-cpu", gpuXorCpu],
  ["pods.global-networking-shape", globalNetworkingShape],
  ["pods.global-networking-enabled-derived", globalNetworkingEnabledDerived],
  ["pods.global-networking-dns-form", globalNetworkingDnsForm],
  ["pods.network-volume-same-data-center", networkVolumeSameDataCenter],
  ["pods.preferred-data-center", preferredDataCenter],
  ["pods.transition-legal", transitionLegal],
  ["pods.action.allowed-in-status", actionAllowedInStatus],
  ["pods.action.response-status", actionResponseStatus],
  ["pods.delete.no-content", deleteNoContent],
  ["pods.list.shape", listShape],
];

const byRule = new Map(modelRules);

export const podLifecycleGroup: CheckGroup = {
  id: "pods.lifecycle",
  run: (contexts) => runLifecycleModel(new Map([...contexts].map(([id, ctx]): [string, ModelMember] => [id, { ctx, checker: byRule.get(id)! }]))),
};

checks.registerGroup(podLifecycleGroup, modelRules.map(([id]) => id), { needs: { keys: ["api"] } });

