import t from "tap";
import fc from "fast-check";
import { renderTextTable, truncate, type TextColumn } from "./text-table.ts";

const columns: TextColumn[] = [
  { header: "Rule", flex: true, min: 10 },
  { header: "Result" },
  { header: "Time", align: "right" },
  { header: "Note", flex: true, optional: true, min: 8 },
];

t.test("truncate marks the cut", async (t) => {
  t.equal(truncate("abcdef", 10), "abcdef");
  t.equal(truncate("abcdef", 4), "abc…");
});

t.test("a table that fits keeps every cell whole and aligns times right", async (t) => {
  const out = renderTextTable(columns, [["a.b", "PASS", "5 ms", ""], ["a.long.rule", "FAIL", "1.5 s", "2 failures"]], 80);
  const lines = out.trimEnd().split("\n");
  t.equal(lines.length, 4);
  t.match(lines[0], /^Rule\s+Result\s+Time\s+Note$/);
  t.match(lines[3], /^a\.long\.rule  FAIL    1\.5 s  2 failures$/);
  t.match(lines[2], /^a\.b\s+PASS\s+5 ms$/);
});

t.test("every line fits the width whenever the fixed columns can", async (t) => {
  const cell = fc.string({ unit: fc.constantFrom("a", ".", "-", "x", " "), maxLength: 90 });
  t.doesNotThrow(() => fc.assert(
    fc.property(fc.array(fc.tuple(cell, cell), { maxLength: 8 }), fc.integer({ min: 40, max: 160 }), (rows, width) => {
      const out = renderTextTable(columns, rows.map(([id, note]) => [id, "KNOWN", "59.9 s", note]), width);
      for (const line of out.split("\n")) if (line.length > width) return false;
      return true;
    }),
    { seed: 7, numRuns: 300 },
  ));
});

t.test("the optional note is dropped before the rule id is cut below its minimum", async (t) => {
  const out = renderTextTable(columns, [["pods.create.unknown-property", "FAIL", "1.5 s", "a long explanation of the failure"]], 40);
  t.notMatch(out, /Note/);
  t.match(out, /pods\.create\.unknown-prop/);
});

t.test("newlines in cells do not break the grid", async (t) => {
  const out = renderTextTable(columns, [["a", "PASS", "1 ms", "line1\nline2"]], 80);
  t.equal(out.trimEnd().split("\n").length, 3);
});
