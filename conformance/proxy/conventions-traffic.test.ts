// The proxy in front of the emulator under other legal conventions (sim/conventions: list envelopes, id and time formats, statuses the spec leaves open, extra members, header case, ...), with scripted REST, GraphQL and job clients: a correct service under any of them, so no finding on the target's side.
import t from "tap";
import { describeDifferences, drawConventions } from "../../sim/conventions/index.ts";
import { emulatorBehindProxy, describe } from "../test-support/proxy/setup.ts";
import { allSessions } from "../test-support/proxy/traffic.ts";

const SEEDS = [1, 2, 3, 4];

// Four emulator sessions, each waiting for its pod to run (about 45 s at speed 1): a file of its own, so tap spreads it.
t.setTimeout(1_800_000);

for (const seed of SEEDS) {
  // The scripted clients send a fixed burst; a seed's tight quota legally answers it 429, at which the SDK throws: quotas stay the fixtures'.
  const conventions = { ...drawConventions(seed), rateQuotas: "fixtures" as const };
  t.test(`--conventions ${seed}: no target finding`, async (t) => {
    t.comment(describeDifferences(conventions));
    const s = await emulatorBehindProxy(t, { conventions, proxy: { soleClient: true } });
    await allSessions(s);
    const { report, lateFindings } = await s.proxy.stop();
    const target = [...s.findings, ...lateFindings].filter((f) => f.side === "target");
    t.same(describe(target), [], "no finding on the target's side");
    t.ok(report.requests >= 25, `${report.requests} exchanges judged`);
    const judged = new Map(report.rules.filter((r) => r.status !== "skip").map((r) => [r.id, r.requests]));
    for (const id of [
      "errors.json-bodies", "pods.status-enum", "jobs.status.values", "jobs.completed-output", "jobs.health.shape", "ratelimit.headers-present",
      "pods.cost-zero-when-stopped", "pods.gpu-xor-cpu", "jobs.worker-id", "jobs.cancel.queued", "jobs.retry.same-id",
      "graphql.myself-pods.fields", "graphql.pod-stop.exited", "graphql.envelope",
    ]) {
      t.ok((judged.get(id) ?? 0) > 0, `${id} judged (${judged.get(id) ?? 0} exchanges)`);
    }
  });
}
