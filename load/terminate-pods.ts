/** create-pod's teardown: the pods the run made are terminated where the target's facts say. */
import { defaultTargetFacts, podActionRequest, podDeleteRequest, type TargetFacts } from "../conformance/target-facts/index.ts";
import type { LoadTarget } from "./target.ts";
import { gatedRequest, inBatches } from "./target-calls.ts";

/**
 * Terminates pods by id: DELETE on the target's pod delete route, or its `terminate` action where
 * it has no DELETE. Returns how many the target accepted.
 */
export async function terminatePods(target: LoadTarget, ids: readonly string[], facts: TargetFacts = defaultTargetFacts()): Promise<number> {
  const where = { facts, target: { rest: target.baseUrl.replace(/\/+$/, "") } };
  const ok = await inBatches(ids, 8, async (id) => {
    try {
      const r = await gatedRequest(target, podDeleteRequest(where, id) ?? podActionRequest(where, id, "terminate"));
      return r.status < 300;
    } catch {
      return false;
    }
  });
  return ok.filter(Boolean).length;
}
