/**
 * A target whose pods start slowly: the drawn lifecycle runs end before any pod is RUNNING, and
 * the run whose first pod is read until RUNNING still judges the rules on RUNNING pods, passing a
 * correct target and failing one whose RUNNING pods report no runtime. A pod here shows RUNNING
 * only from its 15th read on (until then STARTING, without runtime), which the drawn runs of
 * twelve commands at most do not reach.
 */
import t from "tap";
import "./lifecycle-register.ts";
import type { ApiRequest, ApiResponse } from "../../../sim/api/types.ts";
import { editPods, runChecks, startTarget, type Breakage } from "../../test-support/pods/lifecycle-test-target.ts";

const RULE = "pods.runtime-available-when-running";
const READS_TO_START = 15;

function slowStart(runtimeWhenRunning: boolean): Breakage {
  const reads = new Map<string, number>();
  return {
    response: (req: ApiRequest, res: ApiResponse) => {
      const single = /^\/v2\/pods\/([^/]+)$/.exec(req.path);
      if (req.method === "GET" && single) reads.set(single[1]!, (reads.get(single[1]!) ?? 0) + 1);
      if (!req.path.startsWith("/v2/pods")) return res;
      return editPods(res, (pod) => {
        if (pod.status !== "RUNNING") return;
        if ((reads.get(pod.id) ?? 0) < READS_TO_START) {
          pod.status = "STARTING";
          pod.runtime = null;
        } else if (!runtimeWhenRunning) pod.runtime = null;
      });
    },
  };
}

t.test("a slow start: the rules on RUNNING pods are judged by a run that reads its pod until RUNNING", async (t) => {
  const target = await startTarget(slowStart(true));
  t.teardown(() => target.close());
  for (const seed of [1, 2, 3]) {
    const report = await runChecks(target, RULE, "lenient", 1, seed);
    const r = report.rules.find((x) => x.id === RULE);
    t.equal(r?.status, "pass", `seed ${seed}: judged and passed`, { reason: r?.reason });
  }
});

t.test("a slow start and RUNNING pods without runtime: the rule fails", async (t) => {
  const target = await startTarget(slowStart(false));
  t.teardown(() => target.close());
  const report = await runChecks(target, RULE, "lenient", 1, 1);
  const r = report.rules.find((x) => x.id === RULE);
  t.equal(r?.status, "fail", "the missing runtime is found", { reason: r?.reason });
  t.match(r?.failures[0]?.evidence.expected, /runtime stayed null/);
  t.match(r?.failures[0]?.evidence.expected, /until-running/, "the minimal sequence names the run that waited");
});
