// A real client (fetch and the official JS SDK) through the proxy to the emulator: every exchange judged, no finding on either side.
import t from "tap";
import { proxyExitCode } from "./exit-code.ts";
import { describe, emulatorBehindProxy } from "../test-support/proxy/setup.ts";
import { jobSession, restSession } from "../test-support/proxy/traffic.ts";

t.test("fetch and runpod-sdk through the proxy to the emulator: no finding, and the rules they touch are judged", async (t) => {
  const s = await emulatorBehindProxy(t);
  await restSession(s);
  await jobSession(s);
  const { report, lateFindings } = await s.proxy.stop();
  t.same(describe([...s.findings, ...lateFindings]), [], "no finding");
  t.equal(proxyExitCode(report, "any", "warning"), 0);
  const judged = new Map(report.rules.filter((r) => r.status !== "skip").map((r) => [r.id, r.requests]));
  for (const id of [
    "errors.same-body", "errors.json-bodies", "ratelimit.headers-present", "ratelimit.headers-well-formed", "ratelimit.remaining-decreases",
    "pods.create.status-provisioning", "pods.status-enum", "pods.transition-legal", "jobs.run.in-queue", "jobs.status.values",
    "jobs.completed-output", "jobs.cancel.response", "jobs.health.shape", "jobs.transition-legal", "auth.bearer-header",
  ]) {
    t.ok((judged.get(id) ?? 0) > 0, `${id} judged (${judged.get(id) ?? 0} exchanges)`);
  }
  t.ok(report.requests >= 15, `${report.requests} exchanges`);
  const notJudgeable = report.rules.filter((r) => r.reason?.startsWith("not judgeable from traffic"));
  t.ok(notJudgeable.some((r) => r.id === "auth.account-isolation"), "rules that need requests of their own are listed as not judgeable from traffic");
  t.ok(report.coverage.transitions.some((x) => x.machine === "job" && x.exercised), "job transitions covered");
});
