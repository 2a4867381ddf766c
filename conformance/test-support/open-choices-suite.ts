/**
 * The full lenient suite against a target refusing `udp` ports and `:latest` images with 422 naming
 * the path (two choices the spec leaves open; open-choices-target.ts), next to the emulator, on
 * one seed: zero failures, and every createPod, PATCH and errors rule judged on the emulator judged
 * there too. One seed a test file (open-choices*.test.ts): four full runs in one file took over
 * tap's ten minutes on a machine at a load average of 16.
 */
import { join } from "node:path";
import type { Test } from "tap";
import type { ConformanceReport } from "../../reports/conformance-report.ts";
import "../checks/index.ts";
import { conform } from "../conform.ts";
import { startBroken } from "./broken-target.ts";
import { startOpenChoices } from "./open-choices-target.ts";

const judged = (r: ConformanceReport, prefix: string) => r.rules.filter((x) => x.status !== "skip" && x.id.startsWith(prefix)).map((x) => x.id).sort();

export async function judgeOpenChoicesOnSeed(t: Test, seed: number): Promise<void> {
  const dir = t.testdir();
  const emulator = await startBroken();
  t.teardown(() => emulator.stop());
  const picky = await startOpenChoices();
  t.teardown(() => picky.stop());
  const run = (target: typeof emulator, name: string) =>
    conform(
      // A full run shares this process with its target: on a machine loaded many times over, a
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
