// The depth and field measure expands fragments: spreads count every time, cycles do not hang.
import t from "tap";
import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from "graphql";
import { measureOperation } from "./limits.ts";

function measure(doc: string, cap = 1_000_000) {
  const ast = parse(doc);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of ast.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const op = ast.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  return measureOperation(op, { getFragment: (n: string) => fragments.get(n) }, cap);
}

t.test("plain selections", async (t) => {
  t.same(measure("{ a }"), { fields: 1, depth: 1 });
  t.same(measure("{ myself { id pods { id runtime { ports { ip } } } } }"), { fields: 7, depth: 5 });
  t.same(measure("{ x: a y: a z: a }"), { fields: 3, depth: 1 }, "aliases count");
});

t.test("fragments are expanded, inline fragments add no depth", async (t) => {
  t.same(measure("{ a { ...F } b { ...F } } fragment F on T { x y { z } }"), { fields: 8, depth: 3 });
  t.same(measure("{ a { ... on T { b { c } } } }"), { fields: 3, depth: 3 });
});

t.test("fragment doubling stays cheap and is capped", async (t) => {
  let doc = "{ ...F0 } fragment F30 on T { x }";
  for (let i = 0; i < 30; i++) doc += ` fragment F${i} on T { ...F${i + 1} ...F${i + 1} }`;
  t.same(measure(doc, 1001), { fields: 1001, depth: 1 }, "2^30 fields, counted up to the cap");
});

t.test("a fragment cycle (refused by NoFragmentCycles) is skipped, not followed", async (t) => {
  t.same(measure("{ ...A } fragment A on T { x ...B } fragment B on T { y ...A }"), { fields: 2, depth: 1 });
});
