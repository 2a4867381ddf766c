/**
 * The suite against target families (conformance/mutation/target-family.ts): implementations
 * whose open conventions are drawn from a seed (lists in envelopes and pages, custom-method or
 * verb actions, catalogs and volumes under other paths or not listed at all, other job ids and
 * times). On each, the lenient suite must fail nothing and judge what it judges on the emulator
 * (but for the reasons JUSTIFIED_ON_FAMILY gives, test-support/family-run.ts); a failure here is a
 * bug of the suite. The seeded families: families-seeded.test.ts.
 */
import t from "tap";
import { discoverTarget } from "../discover-target.ts";
import { startFamilyTarget } from "../mutation/start-family.ts";
import { EMULATOR_CONVENTIONS, type Conventions } from "../../sim/conventions/index.ts";
import { judgesAsTheEmulator, reference, runOn } from "../test-support/family-run.ts";

t.setTimeout(600_000);

const ENVELOPE_CUSTOM_NO_VOLUMES: Conventions = {
  ...EMULATOR_CONVENTIONS,
  lists: "items-cursor",
  pageSize: 2,
  actions: "custom",
  gpuPath: "/v2/hardware/gpu-types",
  volumes: "unlisted",
  jobIds: "prefix-job_",
  times: "offset-seconds",
  deletePod: "200-pod",
  // No description: what probes alone find and miss.
  description: "none",
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

const NO_VOLUMES_ANY_ID: Conventions = { ...ENVELOPE_CUSTOM_NO_VOLUMES, lists: "data-link", actions: "verb", volumes: "unlisted-any-id" };

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
