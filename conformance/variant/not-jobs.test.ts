/**
 * The suite on the variant target, every area but the job rules (test-support/suite-on-variant.ts says why the
 * run is cut in four): pods, errors, catalog, versioning, GraphQL, auth, rate limits. Also: the four
 * parts take every rule of the suite once, and the target facts were read by probes.
 */
import t from "tap";
import { VARIANT_SWITCHES } from "../test-support/variant-target.ts";
import { selectRules } from "../rule-glob.ts";
import { allRuleIds, judgePartOnVariant, PART_TIMEOUT_MS, PARTS } from "../test-support/suite-on-variant.ts";

t.setTimeout(PART_TIMEOUT_MS);

t.test("the four parts take every rule once", async (t) => {
  const ids = allRuleIds();
  const taken = Object.values(PARTS).flatMap((p) => selectRules(ids, p.only, p.skip));
  t.same([...taken].sort(), ids, "every rule in exactly one part");
});

t.test("the lenient suite passes the variant and judges on it what it judges on the emulator: every area but jobs", { timeout: PART_TIMEOUT_MS }, async (t) => {
  const run = await judgePartOnVariant(t, PARTS["not-jobs"]);
  // The facts were read by probes: the variant serves no OpenAPI document and none of choices.md's paths.
  const facts = new Map((run.report.targetFacts ?? []).map((f) => [f.key, f]));
  t.same(facts.get("podActionPath")?.value, "/v2/pods/{podId}/{action}");
  t.same(facts.get("networkVolumes")?.value, { dataCenterField: "volumes" });
  // restSegments only comes from a document (or a profile): with none, choices.md's list stands.
  t.ok([...facts.values()].every((f) => f.source === "probe" || (f.key === "restSegments" && f.source === "default")), "every fact from a probe");
  t.ok(VARIANT_SWITCHES.length >= 19, "the switches are named");
});
