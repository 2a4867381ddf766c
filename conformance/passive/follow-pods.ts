/**
 * Follows each pod the traffic touches across exchanges: every answer carrying a pod record
 * (create, read, list, update, an action answering the pod) is one observation of its status.
 * A pod seen TERMINATED and later in another status came back, which the spec's table forbids
 * ("never leaves TERMINATED"). Only observations ordered by the traffic itself are compared:
 * the later request was sent after the earlier answer arrived.
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
}

export function createPodFollower(exercised: (key: string) => void, capacity = 10_000): PassiveCheck {
  const pods = new BoundedMap<string, PodSeen>(capacity);
  return {
    name: "pod-follower",
    rules: [{ id: "pods.transition-legal", side: "target" }],
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
        if (!before || exchange.sentAt >= before.exchange.answeredAt) pods.set(pod.id, { status: pod.status, exchange: kept(exchange) });
      }
      return out;
    },
  };
}
