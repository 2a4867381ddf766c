/**
 * A target whose createPod answers 201 with `Location: /v2/pods/{id}` and the pod's id under
 * another name (`podId`). The spec requires `id` in the created Pod, so
 * pods.create.response-required-fields fails, naming it; every other pod rule is judged as on the
 * emulator, because the lifecycle and directed checks read the created pod's id from `Location`
 * where the body lacks it (before, each skipped or failed for want of a pod), and a failure's curl
 * script reads the id back from that header.
 */
import t from "tap";
import "./lifecycle-register.ts";
import "./lifecycle-locked.ts";
import "./lifecycle-host-taken.ts";
import "./lifecycle-action-body.ts";
import "./lifecycle-not-found.ts";
import "./index.ts";
import type { ConformanceReport } from "../../../reports/conformance-report.ts";
import { editPods, replay, runChecks, startTarget } from "../../test-support/pods/lifecycle-test-target.ts";

const isPodsRoute = (path: string) => path.startsWith("/v2/pods");

t.setTimeout(600_000);

const judged = (r: ConformanceReport) => new Set(r.rules.filter((x) => x.status !== "skip").map((x) => x.id));

t.test("createPod answering 201 + Location with the id under another name: only the rule that wants `id` in the body fails", async (t) => {
  const clean = await startTarget();
  t.teardown(() => clean.close());
  const onEmulator = await runChecks(clean, "pods.*", "lenient");
  t.equal(onEmulator.summary.failed, 0);

  const target = await startTarget({
    response: (req, res) => {
      if (req.method !== "POST" || req.path !== "/v2/pods" || res.status !== 201) return res;
      const { id, ...rest } = res.body as Record<string, unknown>;
      return { ...res, headers: { ...res.headers, location: `/v2/pods/${String(id)}` }, body: { podId: id, ...rest } };
    },
  });
  t.teardown(() => target.close());
  const report = await runChecks(target, "pods.*", "lenient");
  const failures = report.rules.filter((r) => r.status === "fail");
  t.same(failures.map((r) => r.id), ["pods.create.response-required-fields"], "the spec's required id is judged, nothing else fails");
  t.match(failures[0]?.failures[0]?.evidence.expected, /missing: id/);
  const missing = [...judged(onEmulator)].filter((id) => !judged(report).has(id));
  t.same(
    missing.map((id) => `${id}: ${report.rules.find((r) => r.id === id)?.reason}`),
    [],
    "every pod rule judged on the emulator is judged: the fixtures found their pods by Location",
  );
});

t.test("...and the strict host-taken check (pods it creates and fills the host with) finds its pods by Location too", async (t) => {
  const target = await startTarget({
    response: (req, res) => {
      if (req.method !== "POST" || req.path !== "/v2/pods" || res.status !== 201) return res;
      const { id, ...rest } = res.body as Record<string, unknown>;
      return { ...res, headers: { ...res.headers, location: `/v2/pods/${String(id)}` }, body: rest };
    },
  });
  t.teardown(() => target.close());
  const report = await runChecks(target, "pods.start.host-gpus-taken", "strict");
  const rule = report.rules.find((r) => r.id === "pods.start.host-gpus-taken");
  t.equal(rule?.status, "pass", rule?.reason ?? rule?.failures[0]?.evidence.expected ?? "");
});

t.test("a lifecycle failure on such a target replays: the curl script reads the new pod's id from Location", async (t) => {
  const target = await startTarget({
    response: (req, res) => {
      if (req.method === "POST" && req.path === "/v2/pods" && res.status === 201) {
        const { id, ...rest } = res.body as Record<string, unknown>;
        return { ...res, headers: { ...res.headers, location: `https://api.example.test/v2/pods/${String(id)}` }, body: rest };
      }
      // An EXITED pod that still costs money: pods.cost-zero-when-stopped fails on a pod known only by its Location.
      return isPodsRoute(req.path) ? editPods(res, (p) => p.status === "EXITED" && (p.cost = 1.5)) : res;
    },
  });
  t.teardown(() => target.close());
  const report = await runChecks(target, "pods.cost-zero-when-stopped", "lenient");
  const failure = report.rules.find((r) => r.id === "pods.cost-zero-when-stopped" && r.status === "fail")?.failures[0];
  if (!failure) return t.fail(`not failed: ${JSON.stringify(report.rules.map((r) => [r.id, r.status, r.reason]))}`);
  t.match(failure.reproduction.curl, /location_id/, "the script reads the id from the Location header");
  const out = await replay(failure, target);
  t.match(out, /"status":"EXITED"[^\n]*"cost":1\.5/, "the replay, with a pod of its own, shows the failure");
});
