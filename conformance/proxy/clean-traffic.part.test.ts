// Real clients (fetch, the official JS SDK, a job script, GraphQL, one without a key) through the proxy to the emulator, under --profile strict (the emulator's own choices): every exchange judged, no finding on either side.
import t from "tap";
import { proxyExitCode } from "./exit-code.ts";
import { describe, emulatorBehindProxy } from "../test-support/proxy/setup.ts";
import { allSessions } from "../test-support/proxy/traffic.ts";

t.test("fetch, runpod-sdk, a job script and GraphQL through the proxy to the emulator, strict: no finding, and the rules they touch are judged", async (t) => {
  const s = await emulatorBehindProxy(t, { proxy: { profile: "strict", soleClient: true } });
  await allSessions(s);
  const { report, lateFindings } = await s.proxy.stop();
  t.same(describe([...s.findings, ...lateFindings]), [], "no finding");
  t.equal(proxyExitCode(report, "any", "warning"), 0);
  const judged = new Map(report.rules.filter((r) => r.status !== "skip").map((r) => [r.id, r.requests]));
  for (const id of [
    "errors.same-body", "errors.json-bodies", "ratelimit.headers-present", "ratelimit.headers-well-formed", "ratelimit.remaining-decreases",
    "pods.create.status-provisioning", "pods.status-enum", "pods.transition-legal", "jobs.run.in-queue", "jobs.status.values",
    "jobs.completed-output", "jobs.cancel.response", "jobs.health.shape", "jobs.transition-legal", "auth.bearer-header",
    "pods.cost-zero-when-stopped", "pods.runtime-available-when-running", "pods.action.response-status", "pods.actions-match-status", "pods.create.default-cloud",
    "jobs.worker-id", "jobs.input-echo", "jobs.cancel.queued", "jobs.cancel.running", "jobs.retry.same-id", "jobs.status-sync", "jobs.runsync.wait-elapsed",
    "auth.bare-key-jobs", "auth.missing-key", "graphql.envelope", "graphql.errors-envelope", "graphql.pod.types", "graphql.gpu-type.types", "graphql.pod-resume.running",
  ]) {
    t.ok((judged.get(id) ?? 0) > 0, `${id} judged (${judged.get(id) ?? 0} exchanges)`);
  }
  t.ok(report.requests >= 15, `${report.requests} exchanges`);
  const notJudgeable = report.rules.filter((r) => r.reason?.startsWith("not judgeable from traffic"));
  t.ok(notJudgeable.some((r) => r.id === "auth.account-isolation"), "rules that need requests of their own are listed as not judgeable from traffic");
  t.ok(report.coverage.transitions.some((x) => x.machine === "job" && x.exercised), "job transitions covered");
});
