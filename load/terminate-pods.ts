/** create-pod's teardown: the pods the run made are terminated. */
import type { LoadTarget } from "./target.ts";
import { call, inBatches } from "./target-calls.ts";

/** Terminates pods by id (DELETE /v2/pods/{id}); returns how many the target accepted. */
export async function terminatePods(target: LoadTarget, key: string, ids: readonly string[]): Promise<number> {
  const base = target.baseUrl.replace(/\/+$/, "");
  const ok = await inBatches(ids, 8, async (id) => {
    try {
      const r = await call("DELETE", `${base}/v2/pods/${encodeURIComponent(id)}`, key);
      return r.status < 300;
    } catch {
      return false;
    }
  });
  return ok.filter(Boolean).length;
}
