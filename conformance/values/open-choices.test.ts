/**
 * Issue 22.3: a property combines only values the target is known to accept. Against a target
 * that refuses `udp` ports and `:latest` images with 422 naming the path (two choices the spec
 * leaves open; test-support/open-choices-target.ts), the full lenient suite fails nothing and
 * judges every createPod and PATCH rule it judges on the emulator. Without the run's value store
 * a broken body carrying `:latest` drew 422 where the spec fixes 400 (pods.create.network-empty-array)
 * and a valid body's refusal failed pods.create.created-201. Seed 5: open-choices-seed-5.test.ts.
 */
import { join } from "node:path";
import t from "tap";
import "../checks/index.ts";
import { conform } from "../conform.ts";
import { judgeOpenChoicesOnSeed } from "../test-support/open-choices-suite.ts";
import { startOpenChoices } from "../test-support/open-choices-target.ts";

t.test("a target refusing udp ports and :latest images: zero failures, the create and PATCH rules judged as on the emulator (seed 1)", async (t) => {
  await judgeOpenChoicesOnSeed(t, 1);
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
