/**
 * The suite against target families (conformance/mutation/target-family.ts): implementations
 * whose open conventions are drawn from a seed (lists in envelopes and pages, custom-method or
 * verb actions, catalogs and volumes under other paths or not listed at all, other job ids and
 * times). On each, the lenient suite must fail nothing and judge what it judges on the emulator
 * (but for the reasons JUSTIFIED_ON_FAMILY gives); a failure here is a bug of the suite.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import t, { type Test } from "tap";
import type { ConformanceReport } from "../../reports/conformance-report.ts";
import "../checks/index.ts";
import { conform } from "../conform.ts";
import { discoverTarget } from "../discover-target.ts";
import { startFamilyTarget } from "../mutation/start-family.ts";
import { describeConventions, drawConventions, type Conventions, type FamilyTarget } from "../mutation/target-family.ts";

t.setTimeout(600_000);

/** Rules a family may leave unjudged, and why. */
const JUSTIFIED_ON_FAMILY = (c: Conventions): Record<string, string> => ({
  ...(c.actions !== "body"
    ? {
        "pods.action.action-enum": "the action is in the path: no action body to refuse",
        "pods.action.field-type": "the action is in the path: no action body to refuse",
      }
    : {}),
});

const judged = (r: ConformanceReport) => new Set(r.rules.filter((x) => x.status !== "skip").map((x) => x.id));

async function runOn(t: Test, target: FamilyTarget, only: string[], profile: object | undefined, name: string) {
  const dir = t.testdir();
  let targetProfile: string | undefined;
  if (profile) {
    targetProfile = join(dir, `${name}-profile.json`);
    await writeFile(targetProfile, JSON.stringify(profile));
  }
  return conform(
    {
      target: target.rest,
      serverlessUrl: target.serverless,
      apiKey: target.keys.api,
      restrictedApiKey: target.keys.restricted,
      otherApiKey: target.keys.other,
      seed: 5,
      runs: 3,
      only,
      reportDir: join(dir, name),
      ...(targetProfile ? { targetProfile } : {}),
    },
    { controlApi: true },
  );
}

async function reference(t: Test, only: string[]) {
  const emulator = await startFamilyTarget({ family: 0 });
  t.teardown(() => emulator.stop());
  const run = await runOn(t, emulator, only, undefined, "emulator");
  t.equal(run.exitCode, 0, "the emulator's own conventions pass");
  return judged(run.report);
}

function judgesAsTheEmulator(t: Test, c: Conventions, report: ConformanceReport, onEmulator: ReadonlySet<string>) {
  const failures = report.rules.filter((r) => r.status === "fail");
  t.same(failures.map((r) => `${r.id}: ${r.failures[0]?.evidence.expected}`), [], `zero failures (${describeConventions(c)})`);
  const justified = JUSTIFIED_ON_FAMILY(c);
  const onFamily = judged(report);
  const unexplained = [...onEmulator].filter((id) => !onFamily.has(id) && justified[id] === undefined).sort();
  t.same(unexplained.map((id) => `${id}: ${report.rules.find((r) => r.id === id)?.reason}`), [], "every rule judged on the emulator is judged on the family");
}

const ENVELOPE_CUSTOM_NO_VOLUMES: Conventions = {
  lists: "items-cursor",
  pageSize: 2,
  actions: "custom",
  gpuPath: "/v2/hardware/gpu-types",
  volumePath: null,
  jobIdPrefix: true,
  offsetTimes: true,
  deleteAnswersPod: true,
  anyVolumeId: false,
};

t.test("an envelope, custom-method target that lists no volumes: discovery finds what probes can, and names what they cannot", async (t) => {
  const target = await startFamilyTarget({ family: ENVELOPE_CUSTOM_NO_VOLUMES });
  t.teardown(() => target.stop());
  const err: string[] = [];
  const found = await discoverTarget(
    { target: target.rest, serverlessUrl: target.serverless, apiKey: target.keys.api },
    { io: { stdout: () => {}, stderr: (s) => void err.push(s) } },
  );
  t.equal(found.facts.podActionPath.value, "/v2/pods/{podId}:{action}", "the custom method found by a probe");
  t.equal(found.facts.podActionPath.source, "probe");
  t.equal(found.facts.podListPath.value, "/v2/pods", "the pod list in an envelope is a list");
  const missing = found.missing.map((m) => m.key);
  t.ok(missing.includes("gpuCatalogPath"), "the GPU catalog under a path nobody guesses: not found");
  t.ok(missing.includes("networkVolumes"), "volumes listed nowhere: not found");
  t.match(err.join(""), /not found \(fill these keys in the profile[^]*networkVolumes: [^]*\{"ids": \[/, "--discover lists each with the key and how to state it");
  t.match(found.profile, /Not found, to fill in: .*gpuCatalogPath/);
});

t.test("with the profile's facts, the pod, catalog and error rules judge on it what they judge on the emulator", async (t) => {
  const only = ["pods.*", "catalog.*", "errors.*"];
  const onEmulator = await reference(t, only);
  const target = await startFamilyTarget({ family: ENVELOPE_CUSTOM_NO_VOLUMES });
  t.teardown(() => target.stop());
  const run = await runOn(t, target, only, target.profile, "family");
  judgesAsTheEmulator(t, target.conventions, run.report, onEmulator);
  const facts = new Map((run.report.targetFacts ?? []).map((f) => [f.key, f]));
  t.same(facts.get("networkVolumes")?.source, "profile", "the volume ids the profile names");
  t.ok(run.report.rules.some((r) => r.id === "pods.update.mount-partial-entry" && r.status === "pass"), "a rule on a pod with a network mount judged with the profile's volumes");
});

t.test("a path template a profile states is used as written: POST /v2/pods/{podId}:{action}", async (t) => {
  const only = ["pods.*"];
  const onEmulator = await reference(t, only);
  const target = await startFamilyTarget({ family: { ...ENVELOPE_CUSTOM_NO_VOLUMES, lists: "choices" } });
  t.teardown(() => target.stop());
  const run = await runOn(t, target, only, { ...target.profile, podActionPath: "/v2/pods/{podId}:{action}" }, "stated");
  judgesAsTheEmulator(t, target.conventions, run.report, onEmulator);
  t.notMatch(JSON.stringify(run.report.rules.map((r) => r.reason ?? "")), /answered as a missing route/);
});

t.test("seeded families: the whole lenient suite, zero failures, the emulator's judged rules judged", async (t) => {
  const onEmulator = await reference(t, []);
  for (const family of [1, 2, 3, 4]) {
    const target = await startFamilyTarget({ family });
    try {
      const run = await runOn(t, target, [], target.profile, `family-${family}`);
      judgesAsTheEmulator(t, target.conventions, run.report, onEmulator);
    } finally {
      await target.stop();
    }
  }
});

const NO_VOLUMES_ANY_ID: Conventions = { ...ENVELOPE_CUSTOM_NO_VOLUMES, lists: "data-link", actions: "verb", anyVolumeId: true };

t.test("a target that lists no volumes and takes any volume id: the rules on network mounts are judged with an id it accepted", async (t) => {
  const only = ["pods.*"];
  const onEmulator = await reference(t, only);
  const target = await startFamilyTarget({ family: NO_VOLUMES_ANY_ID });
  t.teardown(() => target.stop());
  t.same(target.profile, { gpuCatalogPath: "/v2/hardware/gpu-types" }, "the profile names no volume");
  const run = await runOn(t, target, only, target.profile, "any-id");
  judgesAsTheEmulator(t, target.conventions, run.report, onEmulator);
  for (const id of ["pods.create.mounts-exclusive", "pods.create.network-max-items", "pods.update.volume-id-immutable", "pods.update.mount-partial-entry"]) {
    t.equal(run.report.rules.find((r) => r.id === id)?.status, "pass", `${id} judged`);
  }
});

t.test("on that target, the defects #22 saw escape are caught", async (t) => {
  const cases = [
    ["create-both-mounts", "pods.create.mounts-exclusive"],
    ["create-first-network-mount", "pods.create.network-max-items"],
    ["update-ignores-volume-change", "pods.update.volume-id-immutable"],
    ["cost-when-exited", "pods.cost-zero-when-stopped"],
    ["update-partial-mount", "pods.update.mount-partial-entry"],
    ["health-queue-off-by-one", "jobs.health.counters"],
    ["retry-keeps-output", "jobs.retry.output-removed"],
  ] as const;
  for (const [defect, rule] of cases) {
    const target = await startFamilyTarget({ family: NO_VOLUMES_ANY_ID, defects: [defect] });
    try {
      const run = await runOn(t, target, [rule], target.profile, defect);
      t.equal(run.report.rules.find((r) => r.id === rule)?.status, "fail", `${defect}: ${rule} fails`);
    } finally {
      await target.stop();
    }
  }
});
