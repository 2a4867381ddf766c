/**
 * The pure pieces the graphql checks rest on: literals that GraphQL reads back as written,
 * the selection walk, the env judgement, GPU ordering, and the reproduction's id reader.
 */
import t from "tap";
import fc from "fast-check";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Kind, parse, type ObjectValueNode, type StringValueNode } from "graphql";
import { envProblems } from "./env-problems.ts";
import { gqlString } from "./graphql-literal.ts";
import { missingSelections } from "./selection-check.ts";
import { gpuCountFor, type GpuCandidate } from "./gpu-candidates.ts";

const run = promisify(execFile);

t.test("gqlString: GraphQL reads back exactly the string written, whatever its characters", async (t) => {
  fc.assert(
    fc.property(fc.string({ unit: "grapheme" }), (s) => {
      const doc = parse(`{ a(input: {x: ${gqlString(s)}}) }`);
      const op = doc.definitions[0];
      if (op.kind !== Kind.OPERATION_DEFINITION) return false;
      const field = op.selectionSet.selections[0];
      if (field.kind !== Kind.FIELD) return false;
      const value = (field.arguments?.[0].value as ObjectValueNode).fields[0].value as StringValueNode;
      return value.value === s;
    }),
    { numRuns: 300 },
  );
  t.pass();
});

t.test("missingSelections walks aliases, lists, nulls and nested selections", async (t) => {
  const doc = "{ g: gpuTypes { id lowestPrice(input: {gpuCount: 1}) { stockStatus } } myself { pods { id } } }";
  t.same(missingSelections(doc, { g: [{ id: "a", lowestPrice: null }, { id: "b", lowestPrice: { stockStatus: "High" } }], myself: { pods: [] } }), []);
  t.same(missingSelections(doc, { gpuTypes: [], myself: { pods: [{}] } }), ["g", "myself.pods[0].id"]);
  t.same(missingSelections(doc, { g: [{ id: "a", lowestPrice: {} }], myself: null }), ["g[0].lowestPrice.stockStatus"]);
  t.match(missingSelections(doc, { g: ["x"], myself: null })[0], /an object was expected/);
});

t.test("envProblems: KEY=value strings split at the first =, extra variables allowed", async (t) => {
  t.same(envProblems([["CPSIM_A", "b=c"]], ["CPSIM_A=b=c", "PLATFORM_VAR=1"]), []);
  t.match(envProblems([["CPSIM_A", "b"]], ["CPSIM_A: b"]).join(" "), /not a KEY=value string.*no entry "CPSIM_A=b"/);
  t.match(envProblems([["CPSIM_A", "b"]], { CPSIM_A: "b" })[0], /not a list of strings/);
  t.match(envProblems([["CPSIM_A", "b"]], [{ key: "CPSIM_A", value: "b" }])[0], /not a KEY=value string/);
});

t.test("gpuCountFor offers 2 only where the best candidate has it", async (t) => {
  const c = (counts: number[] | undefined): GpuCandidate => ({ id: "x", counts, stockStatus: "High", price: 1 });
  t.same([0, 1, 2].map((p) => gpuCountFor([c([1, 2, 4])], p)), [1, 2, 1]);
  t.same([0, 1].map((p) => gpuCountFor([c([1])], p)), [1, 1]);
  t.same(gpuCountFor([], 1), 1);
});

t.test("the reproduction's graphql_id reads the pod id from compact and pretty answers", async (t) => {
  const { withGraphqlCaptures } = await import("./captures.ts");
  const failure = {
    reproduction: { seed: 1, command: "", curl: "#!/usr/bin/env bash\n\necho '### 1/2 POST x'\nX=$(printf '%s' \"$out\" | json_field 'data.podFindAndDeployOnDemand.id')\n" },
  } as never;
  const script = (withGraphqlCaptures(failure) as { reproduction: { curl: string } }).reproduction.curl;
  t.match(script, /graphql_id 'podFindAndDeployOnDemand'/);
  const reader = script.slice(script.indexOf("graphql_id() {"), script.indexOf("}\n", script.indexOf("graphql_id() {")) + 2);
  for (const body of [
    'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{"data":{"podFindAndDeployOnDemand":{"id":"pod-1","imageName":"x","machine":{"podHostId":"h"}}}}',
    '{\n  "data": {\n    "podFindAndDeployOnDemand": {\n      "id": "pod-2",\n      "machine": { "podHostId": "h" }\n    }\n  }\n}',
  ]) {
    const { stdout } = await run("bash", ["-c", `${reader}\nprintf '%s' "$1" | graphql_id podFindAndDeployOnDemand`, "x", body]);
    t.match(stdout.trim(), /^pod-[12]$/);
  }
});
