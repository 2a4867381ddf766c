/**
 * The suite against a different implementation: the variant target (checks/support/variant-target.ts,
 * every choices.md behaviour switched, real-time pods and jobs) must pass the lenient suite with
 * zero failures, and the suite must judge on it every rule it judges on the embedded emulator,
 * but for the exceptions listed below, each with its reason. Few runs per property and a fast
 * real-time speed keep the wall time bounded; one conform run, whose areas run side by side as
 * they touch different resources (the rate-limit rules, which spend the second account's window,
 * run with the auth rules that use that account).
 */
import { join } from "node:path";
import t from "tap";
import type { ConformanceReport } from "../reports/conformance-report.ts";
import "./checks/index.ts";
import { startVariant, VARIANT_SWITCHES } from "./checks/support/variant-target.ts";
import { conform } from "./conform.ts";
import { startEmbedded } from "./embedded.ts";

/** Rules judged on the emulator but not on the variant, and why: none may be missing without a reason here. */
const JUSTIFIED: Readonly<Record<string, string>> = {
  "jobs.retry.expired": "needs the control API to let a result expire (or --slow: real minutes)",
  "jobs.retention": "needs the control API (or --slow: 30 real minutes)",
  "jobs.retention.run": "needs the control API (or --slow: 30 real minutes)",
  "jobs.retention.runsync": "needs the control API (or --slow: a real minute)",
  "pods.action.action-enum": "the variant takes the action in the path: it has no action body to refuse",
  "pods.action.field-type": "the variant takes the action in the path: it has no action body to refuse",
};

const RUNS = 2;
// Real time: a few minutes on a loaded machine, above the suite's default per-file limit.
t.setTimeout(600_000);

const judged = (r: ConformanceReport) => new Set(r.rules.filter((x) => x.status !== "skip").map((x) => x.id));

t.test("the lenient suite passes the variant and judges on it what it judges on the emulator", { timeout: 600_000 }, async (t) => {
  const dir = t.testdir();
  const emulator = await conform({ seed: 11, runs: RUNS, reportDir: join(dir, "emulator") }, { startEmbedded });
  t.equal(emulator.exitCode, 0, "the emulator passes");

  const variant = await startVariant({ speed: 40, seed: 11 });
  t.teardown(() => variant.stop());
  const keys = { apiKey: variant.keys.api, restrictedApiKey: variant.keys.restricted, otherApiKey: variant.keys.other };
  // One run: the suite itself runs the areas side by side, and keeps other requests off the key
  // while the rate-limit rules count (four runs at once on one key would disturb their counting).
  const run = await conform({ target: variant.rest, serverlessUrl: variant.serverless, ...keys, seed: 11, runs: RUNS, reportDir: join(dir, "variant") });
  const rules = run.report.rules;
  const failures = rules.filter((r) => r.status === "fail");
  t.same(
    failures.map((r) => `${r.id}: ${r.failures[0]?.evidence.expected}`),
    [],
    "zero failures on the variant",
  );
  t.equal(run.report.summary.targetErrors, 0, "no target errors");

  const onVariant = new Set(rules.filter((x) => x.status !== "skip").map((x) => x.id));
  const missing = [...judged(emulator.report)].filter((id) => !onVariant.has(id)).sort();
  const unexplained = missing.filter((id) => JUSTIFIED[id] === undefined);
  t.same(
    unexplained.map((id) => `${id}: ${rules.find((r) => r.id === id)?.reason}`),
    [],
    "every rule judged on the emulator is judged on the variant, but for the listed exceptions",
  );
  for (const id of missing) {
    const r = rules.find((x) => x.id === id)!;
    t.equal(r.status, "skip", `${id} skipped (${JUSTIFIED[id]})`);
  }

  // The facts were read by probes: the variant serves no OpenAPI document and none of choices.md's paths.
  const facts = new Map((run.report.targetFacts ?? []).map((f) => [f.key, f]));
  t.same(facts.get("podActionPath")?.value, "/v2/pods/{podId}/{action}");
  t.same(facts.get("networkVolumes")?.value, { dataCenterField: "volumes" });
  // restSegments only comes from a document (or a profile): with none, choices.md's list stands.
  t.ok([...facts.values()].every((f) => f.source === "probe" || (f.key === "restSegments" && f.source === "default")), "every fact from a probe");
  t.ok(VARIANT_SWITCHES.length >= 19, "the switches are named");
});
