/**
 * The invariants every Pod record keeps, judged on each record the traffic shows (create, get,
 * list, update, an action's answer) with the very checkers `conform` applies to the records it
 * observes (conformance/checks/pods/lifecycle-invariants.ts): runtime null outside RUNNING, cost
 * 0.0 when EXITED or TERMINATED, a `gpu` or a `cpu` object but not both, `globalNetworking`'s
 * address and DNS name present only when enabled and in the spec's form, and (choices.md, strict
 * only) the actions of each status and the placement in a preferred data center of a pod the
 * proxy saw created. Only the checkers that read the record alone are used here;
 * the others need what the pod was created with, which a proxy sees only for pods created through
 * it. A record's kind (GPU or CPU) is the one its own `cpu` object says.
 */
import {
  actionsMatchStatus,
  costZeroWhenStopped,
  globalNetworkingDnsForm,
  globalNetworkingEnabledDerived,
  globalNetworkingShape,
  gpuXorCpu,
  preferredDataCenter,
  runtimeNullUnlessRunning,
} from "../checks/pods/lifecycle-invariants.ts";
import type { CheckerEnv, InvariantChecker, Observation } from "../checks/pods/lifecycle-observation.ts";
import type { Operation } from "./classify.ts";
import { verdict, type Judgement, type PassiveCheck } from "./judgement.ts";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The checkers, and whether they also judge the record an action answers with (start, stop...: its shape is choices.md's, not the spec's). */
const CHECKERS: readonly (readonly [string, InvariantChecker, boolean])[] = [
  ["pods.runtime-null-unless-running", runtimeNullUnlessRunning, true],
  ["pods.cost-zero-when-stopped", costZeroWhenStopped, true],
  ["pods.gpu-xor-cpu", gpuXorCpu, false],
  ["pods.global-networking-shape", globalNetworkingShape, false],
  ["pods.global-networking-enabled-derived", globalNetworkingEnabledDerived, false],
  ["pods.global-networking-dns-form", globalNetworkingDnsForm, false],
  ["pods.actions-match-status", actionsMatchStatus, false],
  // Judged where the record answers the createPod whose body the proxy saw (its dataCenterIds).
  ["pods.preferred-data-center", preferredDataCenter, false],
];

/** The Pod records of an answer. */
export function podRecordsOf(op: Operation, json: unknown): Record<string, unknown>[] {
  let records: unknown[] = [];
  if (op.kind === "listPods") records = isObj(json) && Array.isArray(json.pods) ? json.pods : Array.isArray(json) ? json : [];
  else if (op.kind === "createPod" || op.kind === "getPod" || op.kind === "updatePod" || op.kind === "podAction") records = [json];
  return records.filter(isObj);
}

export const podInvariants: PassiveCheck = {
  name: "pod-invariants",
  rules: CHECKERS.map(([id]) => ({ id, side: "target" as const })),
  judge({ exchange, op, profile }) {
    const a = exchange.answer;
    if (!a || a.status < 200 || a.status >= 300 || a.truncated) return [];
    const out: Judgement[] = [];
    // These checkers read the record alone: the environment and the tracked pod are only named.
    const env = { profile } as unknown as CheckerEnv;
    for (const view of podRecordsOf(op, a.json)) {
      const label = typeof view.id === "string" ? view.id : "(no id)";
      const kind = isObj(view.cpu) ? "cpu" : "gpu";
      const body = op.kind === "createPod" && isObj(exchange.request.json) ? exchange.request.json : {};
      const obs = { kind: "view", view, pod: { label, id: label, kind, body }, exchange: exchange.recorded, previous: undefined } as unknown as Observation;
      for (const [id, checker, onActions] of CHECKERS) {
        if ((op.kind === "podAction" && !onActions) || !checker.applies(obs, env)) continue;
        // A record with neither `gpu` nor `cpu` is the schema's finding: which one it lacks needs the pod's kind.
        if (id === "pods.gpu-xor-cpu" && !Object.hasOwn(view, "gpu") && !Object.hasOwn(view, "cpu")) continue;
        const v = checker.check(obs, env) as { expected: string } | undefined;
        out.push(verdict(id, v?.expected));
      }
    }
    return out;
  },
};
