import t from "tap";
import fc from "fast-check";
import { jsonErrorOffset, lineColumn } from "./json-error-position.ts";

t.test("finds the first character that cannot continue the text", async (t) => {
  t.equal(jsonErrorOffset('{"a": }'), 6);
  t.equal(jsonErrorOffset('{"a": 1,\n "b" 2}'), 14);
  t.equal(jsonErrorOffset('{"a":1'), 6, "an early end points past the last character");
  t.equal(jsonErrorOffset("[1,2,]"), 5);
  t.equal(jsonErrorOffset('{"a": tru}'), 9);
  t.equal(jsonErrorOffset('{"a": 01}'), 7, "no leading zeros");
  t.equal(jsonErrorOffset('"\t"'), 1, "no raw control characters in strings");
  t.equal(jsonErrorOffset(""), 0);
  t.equal(jsonErrorOffset(' {"a": [1, -2.5e3, "x\\u00e9", true, false, null]} '), undefined);
});

t.test("line and column are 1-based", async (t) => {
  t.same(lineColumn("ab\ncd", 0), { line: 1, column: 1 });
  t.same(lineColumn("ab\ncd", 4), { line: 2, column: 2 });
});

t.test("agrees with JSON.parse on what is JSON, and points inside the text", async (t) => {
  // Valid documents, and the same documents with one character removed or inserted.
  const text = fc.oneof(
    fc.json(),
    fc.tuple(fc.json(), fc.nat(), fc.constantFrom("", "{", "}", "[", "]", ",", ":", '"', "x", "0", "\\", " ")).map(
      ([json, at, c]) => {
        const i = at % (json.length + 1);
        return json.slice(0, i) + c + json.slice(i + (c === "" ? 1 : 0));
      },
    ),
  );
  fc.assert(
    fc.property(text, (s) => {
      let error: Error | undefined;
      try {
        JSON.parse(s);
      } catch (e) {
        error = e as Error;
      }
      const offset = jsonErrorOffset(s);
      if (error === undefined) return offset === undefined;
      // Where V8 does name a position, it must be the same one.
      const position = /at position (\d+)/.exec(error.message)?.[1];
      if (position !== undefined) return offset === Number(position);
      return offset !== undefined && offset >= 0 && offset <= s.length;
    }),
    { numRuns: 2000 },
  );
  t.pass("the property held");
});
