/**
 * flavorVcpuCounts reads the counts a CPU flavor's catalog entry states, as JSON integers or as
 * decimal strings (catalog records' types are not shown: `cpsim serve --conventions` with
 * catalogNumbers=string serves them so), and never guesses one.
 */
import t from "tap";
import { countOf, flavorVcpuCounts } from "./flavor-vcpu-counts.ts";

t.test("counts as integers or decimal strings, lists, sizes and ranges; only powers of two from 2", async (t) => {
  t.same(flavorVcpuCounts({ vcpu: { allowed: [2, 8, 32] } }), [2, 8, 32], "a non-contiguous list as given");
  t.same(flavorVcpuCounts({ vcpu: { allowed: ["2", "8", "32"] } }), [2, 8, 32], "the same list as strings");
  t.same(flavorVcpuCounts({ vcpu: { min: "8", max: "32" } }), [8, 16, 32], "a range given as strings");
  t.same(flavorVcpuCounts({ sizes: [{ vcpuCount: "4" }, { vcpu: 16 }] }), [4, 16], "sizes, mixed");
  t.same(flavorVcpuCounts({ vcpuCounts: [3, "6", 8] }), [8], "counts the spec forbids are dropped");
  t.equal(flavorVcpuCounts({ vcpu: { allowed: ["two"] } }), undefined, "a word is no count");
  t.equal(flavorVcpuCounts({ id: "x" }), undefined, "none stated: undefined");
  t.same([countOf(4), countOf(" 16 "), countOf("1.5"), countOf("-2"), countOf(true)], [4, 16, undefined, undefined, undefined]);
});
