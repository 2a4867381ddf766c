/**
 * Issue 22.3: a property combines only values the target is known to accept. Against a target
 * that refuses `udp` ports and `:latest` images with 422 naming the path (two choices the spec
 * leaves open; test-support/open-choices-target.ts), the full lenient suite fails nothing and
 * judges every createPod and PATCH rule it judges on the emulator. Without the run's value store
 * a broken body carrying `:latest` drew 422 where the spec fixes 400 (pods.create.network-empty-array)
 * and a valid body's refusal failed pods.create.created-201.
 */
import { join } from "node:path";
import t from "tap";
import type { ConformanceReport } from "../../reports/conformance-report.ts";
import "../checks/index.ts";
import { conform } from "../conform.ts";
import { startBroken } from "../test-support/broken-target.ts";
import { startOpenChoices } from "../test-support/open-choices-target.ts";

const judged = (r: ConformanceReport, prefix: string) => r.rules.filter((x) => x.status !== "skip" && x.id.startsWith(prefix)).map((x) => x.id).sort();

t.test("a target refusing udp ports and :latest images: zero failures, the create and PATCH rules judged as on the emulator", async (t) => {
  const dir = t.testdir();
  const emulator = await startBroken();
  t.teardown(() => emulator.stop());
  const picky = await startOpenChoices();
  t.teardown(() => picky.stop());
  for (const seed of [1, 5]) {
    const run = (target: typeof emulator, name: string) =>
      conform(
        // Two full runs share this process with their targets: on a machine loaded many times over, a
        // request may wait long for the CPU, which this test does not judge (a timeout would be a target error).
        { target: target.rest, serverlessUrl: target.serverless, apiKey: target.keys.api, restrictedApiKey: target.keys.restricted, otherApiKey: target.keys.other, seed, runs: 10, timeoutMs: 180_000, reportDir: join(dir, `${name}-${seed}`) },
        { controlApi: true },
      );
    const reference = await run(emulator, "emulator");
    t.equal(reference.exitCode, 0, `seed ${seed}: the emulator passes`, { targetErrors: reference.report.targetErrors.slice(0, 3) });
    const before = picky.refused();
    const result = await run(picky, "picky");
    const failures = result.report.rules.filter((r) => r.status === "fail");
    t.same(failures.map((r) => `${r.id}: ${r.failures[0]?.evidence.expected}`), [], `seed ${seed}: zero failures`);
    t.ok(picky.refused() > before, `seed ${seed}: the target refused ${picky.refused() - before} bodies for its own choices, none blamed on a rule`);
    for (const prefix of ["pods.create.", "pods.update.", "errors."]) {
      const missing = judged(reference.report, prefix).filter((id) => !judged(result.report, prefix).includes(id));
      t.same(missing.map((id) => `${id}: ${result.report.rules.find((r) => r.id === id)?.reason}`), [], `seed ${seed}: every ${prefix}* rule judged on the emulator is judged`);
    }
    t.ok(judged(result.report, "pods.update.").length >= 10 && judged(result.report, "pods.create.").length >= 20, "the PATCH and create rules are judged");
  }
});

t.test("on that target, a refusal with 422 where the spec fixes 400 is still caught: the store excuses only open values", async (t) => {
  // Both mounts at once: the spec's 400; this target answers 422 (naming mounts), besides its open choices.
  const picky = await startOpenChoices(1, (request, outcome) => {
    const mounts = (request.body as { mounts?: Record<string, unknown> } | undefined)?.mounts;
    if (request.method !== "POST" || request.path !== "/v2/pods" || outcome.kind !== "response" || outcome.response.status !== 400) return outcome;
    if (mounts?.["persistent"] === undefined || mounts["network"] === undefined) return outcome;
    return { kind: "response", response: { ...outcome.response, status: 422, body: { ...(outcome.response.body as object), status: 422, title: "Unprocessable Entity" } } };
  });
  t.teardown(() => picky.stop());
  const rule = "pods.create.mounts-exclusive";
  const run = await conform(
    { target: picky.rest, serverlessUrl: picky.serverless, apiKey: picky.keys.api, seed: 3, runs: 10, only: [rule, "pods.create.created-201"], reportDir: join(t.testdir(), "r") },
    { controlApi: true },
  );
  const r = run.report.rules.find((x) => x.id === rule);
  t.equal(r?.status, "fail", `${rule} fails`);
  t.match(r?.failures[0]?.evidence.got.status, /422/);
  t.equal(run.report.rules.find((x) => x.id === "pods.create.created-201")?.status, "pass", "and the open choices are no failure");
});
