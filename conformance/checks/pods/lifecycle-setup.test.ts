/**
 * Issue 31 item 6: a pod rule whose state never came about is a set-up skip, counted apart. A
 * target whose pods never read RUNNING (every record shows STARTING) leaves the rule on RUNNING
 * pods unjudged after the runs that wait for one: its skip says "set-up not reached", and the
 * summary counts it in `setupNotReached`, not among the skips a run's options decide.
 */
import t from "tap";
import { SETUP_NOT_REACHED } from "../../../reports/conformance-report.ts";
import { editPods, isPodPath, runChecks, startTarget } from "../../test-support/pods/lifecycle-test-target.ts";
import "./index.ts";

t.test("pods that never read RUNNING: the RUNNING rule is a set-up skip, counted apart", async (t) => {
  const target = await startTarget({
    response: (req, res) => (isPodPath(req) ? editPods(res, (pod) => void (pod.status === "RUNNING" && (pod.status = "STARTING"))) : res),
  });
  t.teardown(() => target.close());
  const report = await runChecks(target, "pods.runtime-available-when-running", "lenient");
  const rule = report.rules[0]!;
  t.equal(rule.status, "skip");
  t.match(rule.reason, new RegExp(`^${SETUP_NOT_REACHED} in 3 runs whose first pod is read until RUNNING: no pod was observed RUNNING`));
  t.equal(report.summary.setupNotReached, 1);
});
