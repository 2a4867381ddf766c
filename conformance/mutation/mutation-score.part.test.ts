/**
 * A defect's score (mutation.ts `score`): an escape under the lenient profile of a defect a correct
 * service may match there (its `legalUnderLenient`) carries the reason and is counted apart from the
 * misses; under strict, or caught, it carries none. The defects so marked are exactly those whose
 * sentence leaves open what they change (docs/mutation.md lists them with the sentence).
 */
import t from "tap";
import { drawConventions, EMULATOR_CONVENTIONS } from "../../sim/conventions/index.ts";
import { defectByName, defects } from "../../sim/defects/index.ts";
import { score } from "./mutation.ts";

const escapedRun = (rule: string) => ({ failing: [], statuses: { [rule]: "pass" }, wallTimeMs: 5 }) as never;

t.test("an escape under lenient of a defect the spec leaves open carries its reason; under strict it does not", async (t) => {
  const d = defectByName("runsync-wait-unchecked")!;
  const lenient = score(d, escapedRun(d.rule), [], "suite", "lenient");
  t.equal(lenient.verdict, "escaped");
  t.equal(lenient.ruleStatus, "pass");
  t.match(lenient.legal, /^legal under lenient: .*1000 to 300000/, "the reason quotes the sentence");
  t.equal(score(d, escapedRun(d.rule), [], "suite", "strict").legal, undefined, "strict judges the emulator's reading: an escape there is a miss");
  const caught = score(d, { failing: [d.rule], statuses: { [d.rule]: "fail" }, wallTimeMs: 5 } as never, [], "rule", "lenient");
  t.equal(caught.legal, undefined, "a caught defect needs no reason");
  const spec = defectByName("not-found-plain-json")!;
  t.equal(score(spec, escapedRun(spec.rule), [], "suite", "lenient").legal, undefined, "a defect of what the spec fixes stays a miss when it escapes");
});

t.test("the defects legal under lenient, each with a reason", async (t) => {
  const legal = defects.filter((d) => d.legalUnderLenient !== undefined);
  t.same(legal.map((d) => d.name).sort(), [
    "create-cpu-global-networking",
    "create-global-networking-anywhere",
    "create-volume-dc-ignored",
    "gpu-memory-string",
    "locked-pod-stops-ok",
    "malformed-key-last-word",
    "pod-machine-id-number",
    "runsync-wait-unchecked",
    "status-ttl-unchecked",
    "update-cpu-global-networking",
    "uptime-string",
    "validation-without-errors",
  ]);
  for (const d of legal) t.ok(d.legalUnderLenient!.length > 40, `${d.name}: a reason, not a word`);
});

t.test("a defect that does nothing a correct service would not under a seed's conventions: its escape there carries the reason", async (t) => {
  const d = defectByName("create-vcpu-one")!;
  t.equal(drawConventions(3).vcpuCounts, "large-only", "seed 3's flavors offer no 2 vCPUs");
  const seed3 = score(d, escapedRun(d.rule), [], "suite", "lenient", drawConventions(3));
  t.match(seed3.legal, /^not observable under these conventions: .*large-only/);
  t.equal(score(d, escapedRun(d.rule), [], "suite", "lenient", EMULATOR_CONVENTIONS).legal, undefined, "observable where 2 vCPUs are offered: an escape there is a miss");
  t.equal(score(d, escapedRun(d.rule), [], "suite", "lenient", { ...drawConventions(3), vcpuCounts: "sparse" }).legal, undefined, "sparse counts start at 2");
});
