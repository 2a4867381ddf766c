/**
 * Every pod's `actions` is exactly the list choices.md gives for its status. The table is written
 * out again here, from choices.md, on purpose: a checker that read the model's own table would
 * agree with any mistake in it.
 */
import type { Micros } from "../../core/index.ts";
import { podRestView, type PodRegistry } from "../pods/index.ts";

const EXPECTED: Readonly<Record<string, string>> = {
  PROVISIONING: "stop,terminate",
  STARTING: "stop,terminate",
  RUNNING: "stop,restart,terminate",
  EXITED: "start,terminate",
  ERROR: "start,terminate",
  TERMINATED: "",
};

export interface PodActionsState {
  readonly pods: PodRegistry;
  readonly now: Micros;
}

export const podActionsMatchStatus = {
  id: "pods.actions-match-status",
  title: "`actions` equals the docs/choices.md table for the status",
  check(state: PodActionsState): string[] {
    const out: string[] = [];
    for (const pod of state.pods.all()) {
      const view = podRestView(pod, state.now);
      const expected = EXPECTED[view.status];
      if (expected === undefined) out.push(`pod ${pod.id}: unknown status ${view.status}`);
      else if (view.actions.join(",") !== expected) out.push(`pod ${pod.id}: ${view.status} with actions [${view.actions.join(",")}], expected [${expected}]`);
    }
    return out;
  },
};
