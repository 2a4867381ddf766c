/**
 * Defects that escaped under some seeds of the open-choice space (`cpsim mutation --conventions`),
 * each now caught there by the rule it breaks, whose check alone still passes that seed's clean
 * target: one cell of the matrix per case (run-suite.ts), the check alone, lenient as the matrix runs it.
 */
import t from "tap";
import { drawConventions } from "../../sim/conventions/index.ts";
import { runSuite } from "./run-suite.ts";

t.setTimeout(600_000);

const CASES: readonly { readonly seed: number; readonly defect: string; readonly rule: string; readonly why: string }[] = [
  {
    seed: 1,
    defect: "create-defaults-community",
    rule: "pods.create.default-cloud",
    why: "GPU types offered in one cloud only: a pod left without a cloud, put in COMMUNITY, is refused for capacity, which the rule had read as no capacity at all",
  },
];

for (const c of CASES) {
  t.test(`seed ${c.seed}: ${c.defect} caught by ${c.rule}`, async (t) => {
    t.comment(c.why);
    const cell = (defects: string[]) => runSuite({ defects, seed: 1, profile: "lenient", only: [c.rule], reportDir: t.testdir(), family: c.seed });
    const clean = await cell([]);
    t.equal(clean.statuses[c.rule], "pass", `the clean target under seed ${c.seed} passes`);
    const broken = await cell([c.defect]);
    t.equal(broken.statuses[c.rule], "fail", `the defect fails it: ${broken.expected?.[c.rule] ?? "(no failure)"}`);
  });
}

t.test("the cases' conventions are what they say", async (t) => {
  t.equal(drawConventions(1).gpuClouds, "alternate", "seed 1 offers GPU types in one cloud only");
});
