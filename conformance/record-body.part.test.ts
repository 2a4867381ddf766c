import t from "tap";
import fc from "fast-check";
import { bodyText, recordBody } from "./record-body.ts";

t.test("small bodies are kept whole", async (t) => {
  t.same(recordBody('{"a":1}'), { kind: "text", text: '{"a":1}' });
});

t.test("large padded bodies become literal text around runs, exactly", async (t) => {
  const text = `{"input":{"pad":"${"x".repeat(200_000)}"}}`;
  const body = recordBody(text, 1000);
  t.same(body, { kind: "runs", size: text.length, parts: [{ text: '{"input":{"pad":"' }, { char: "x", count: 200_000 }, { text: '"}}' }] });
  t.equal(bodyText(body), text);
});

t.test("a large body without long runs keeps only its head", async (t) => {
  const text = Array.from({ length: 5000 }, (_, i) => String(i % 97)).join(",");
  const body = recordBody(text, 1000);
  t.equal(body.kind, "truncated");
  if (body.kind === "truncated") {
    t.equal(body.head.length, 1000);
    t.equal(body.size, Buffer.byteLength(text));
  }
  t.equal(bodyText(body), undefined);
});

t.test("property: a recorded body stands for exactly its text whenever it is not cut", async (t) => {
  const piece = fc.oneof(fc.string({ maxLength: 20 }), fc.tuple(fc.constantFrom("a", "é", "😀", "\n", "\0"), fc.integer({ min: 1, max: 3000 })).map(([c, n]) => c.repeat(n)));
  t.doesNotThrow(() =>
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), (pieces) => {
        const text = pieces.join("");
        const body = recordBody(text, 200);
        return body.kind === "truncated" || bodyText(body) === text;
      }),
      { seed: 5, numRuns: 300 },
    ),
  );
});
