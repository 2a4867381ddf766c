/**
 * Follows each pod the traffic touches across exchanges: every answer carrying a pod record
 * (create, read, list, update, an action answering the pod) is one observation of its status.
 * A pod seen TERMINATED and later in another status came back, which the spec's table forbids
 * ("never leaves TERMINATED"). A pod read RUNNING without runtime metrics three times or more,
 * over four seconds or more, never got them ("runtime metrics become available"; `conform` reads
 * such a pod twice more, 2 s apart, before it counts). Only observations ordered by the traffic
 * itself are compared: the later request was sent after the earlier answer arrived.
 */
import { NONE, transitionKey } from "../spec-transitions.ts";
import { kept, type SeenExchange } from "./answer.ts";
import { BoundedMap } from "./bounded-map.ts";
import { verdict, type Judgement, type PassiveCheck } from "./judgement.ts";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const POD_STATES: ReadonlySet<string> = new Set(["PROVISIONING", "STARTING", "RUNNING", "EXITED", "ERROR", "TERMINATED"]);

interface PodSeen {
  readonly status: string;
  readonly exchange: SeenExchange;
  /** Reads of the pod RUNNING without runtime, since the first of them. */
  readonly bare?: { readonly first: SeenExchange; readonly reads: number; readonly flagged: boolean };
}

/** Reads of a RUNNING pod without runtime, and the time they span, before it counts. */
export const BARE_RUNNING_READS = 3;
export const BARE_RUNNING_MS = 4_000;

export function createPodFollower(exercised: (key: string) => void, capacity = 10_000): PassiveCheck {
  const pods = new BoundedMap<string, PodSeen>(capacity);
  return {
    name: "pod-follower",
    rules: [
      { id: "pods.transition-legal", side: "target" },
      { id: "pods.runtime-available-when-running", side: "target" },
    ],
    judge({ exchange, op }) {
      const a = exchange.answer;
      if (!a || a.status < 200 || a.status >= 300 || a.json === undefined) return [];
      let records: unknown[] = [];
      if (op.kind === "listPods") records = isObj(a.json) && Array.isArray(a.json.pods) ? a.json.pods : Array.isArray(a.json) ? a.json : [];
      else if (op.kind === "createPod" || op.kind === "getPod" || op.kind === "updatePod" || op.kind === "podAction") records = [a.json];
      const out: Judgement[] = [];
      for (const pod of records) {
        // A status that is no pod state is pods.status-enum's finding, not a move.
        if (!isObj(pod) || typeof pod.id !== "string" || typeof pod.status !== "string" || !POD_STATES.has(pod.status)) continue;
        const before = pods.get(pod.id);
        if (op.kind === "createPod" && before === undefined) exercised(transitionKey("pod", NONE, pod.status));
        if (before && exchange.sentAt >= before.exchange.answeredAt) {
          if (before.status !== pod.status) exercised(transitionKey("pod", before.status, pod.status));
          const cameBack = before.status === "TERMINATED" && pod.status !== "TERMINATED";
          out.push(
            verdict(
              "pods.transition-legal",
              cameBack ? `a pod that never leaves TERMINATED; pod ${pod.id} was TERMINATED (exchange #${before.exchange.seq}) and is now ${pod.status}` : undefined,
              "target",
              cameBack ? [before.exchange] : undefined,
            ),
          );
        }
        if (before && exchange.sentAt < before.exchange.answeredAt) continue;
        let bare: PodSeen["bare"];
        if (pod.status === "RUNNING" && (pod.runtime === null || pod.runtime === undefined)) {
          const prev = before?.status === "RUNNING" ? before.bare : undefined;
          bare = prev ? { ...prev, reads: prev.reads + 1 } : { first: kept(exchange), reads: 1, flagged: false };
          if (!bare.flagged && bare.reads >= BARE_RUNNING_READS && exchange.sentAt - bare.first.answeredAt >= BARE_RUNNING_MS) {
            bare = { ...bare, flagged: true };
            const problem = `a RUNNING pod reports runtime metrics ("container becomes healthy → RUNNING: runtime metrics become available"); pod ${pod.id} was read RUNNING with runtime ${JSON.stringify(pod.runtime) ?? "absent"} ${bare.reads} times over ${Math.round((exchange.sentAt - bare.first.answeredAt) / 1000)} s since exchange #${bare.first.seq}`;
            out.push(verdict("pods.runtime-available-when-running", problem, "target", [bare.first]));
          }
        } else if (pod.status === "RUNNING") {
          out.push(verdict("pods.runtime-available-when-running", undefined));
        }
        pods.set(pod.id, { status: pod.status, exchange: kept(exchange), ...(bare ? { bare } : {}) });
      }
      return out;
    },
  };
}
