// The JSON body reader on its own: any JSON value within the limits reads back as JSON.parse
// reads it; the limits, UTF-8 and poisoning checks refuse exactly what they should.
import fc from "fast-check";
import t from "tap";
import { BodyRejection, contentTypeProblem, parseJsonBody } from "./json-body.ts";
import { defaultLimits } from "./options.ts";

const limits = defaultLimits;

t.test("any JSON value within the limits parses like JSON.parse", async (t) => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 20 }), (value) => {
      const text = JSON.stringify(value);
      // `__proto__` and `constructor` keys are refused by design (the poisoning test below); fast-check draws them now and then.
      fc.pre(!/"(__proto__|constructor)":/.test(text));
      t.strictSame(parseJsonBody(Buffer.from(text), limits), JSON.parse(text));
    }),
    { numRuns: 300 },
  );
  t.pass();
});

t.test("depth is counted on the bytes, outside strings only", async (t) => {
  const nest = (n: number) => "[".repeat(n) + "]".repeat(n);
  t.same(parseJsonBody(Buffer.from(nest(64)), limits), JSON.parse(nest(64)));
  t.throws(() => parseJsonBody(Buffer.from(nest(65)), limits), /deeper than 64 levels/);
  const objects = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);
  t.doesNotThrow(() => parseJsonBody(Buffer.from(objects(64)), limits));
  t.throws(() => parseJsonBody(Buffer.from(objects(65)), limits), BodyRejection);
  const escaped = JSON.stringify({ s: '\\"[[[[' + "[".repeat(100) });
  t.doesNotThrow(() => parseJsonBody(Buffer.from(escaped), limits));
});

t.test("strings with escaped quotes and backslashes are skipped exactly: the depth is the value's", async (t) => {
  const depth = (v: unknown): number =>
    v !== null && typeof v === "object" ? 1 + Math.max(0, ...Object.values(v as object).map(depth)) : 0;
  const tricky = fc.stringMatching(/^[\\"\[\]{},a]{0,12}$/);
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: "small" }, tricky, fc.array(tie("node"), { maxLength: 3 }), fc.dictionary(tricky, tie("node"), { maxKeys: 3 })),
  })).node;
  fc.assert(
    fc.property(value, (v) => {
      const d = depth(v);
      // Padding past maxJsonDepth bytes makes the reader scan (short bodies skip it).
      const text = " ".repeat(80) + JSON.stringify(v);
      const exact = { ...limits, maxJsonDepth: Math.max(1, d) };
      parseJsonBody(Buffer.from(text), exact);
      if (d < 2) return true;
      const under = { ...limits, maxJsonDepth: d - 1 };
      try {
        parseJsonBody(Buffer.from(text), under);
        return false;
      } catch (err) {
        return err instanceof BodyRejection && /deeper than/.test(err.detail);
      }
    }),
    { numRuns: 400 },
  );
  t.pass();
});

t.test("arrays and values are bounded", async (t) => {
  const small = { ...limits, maxJsonArrayItems: 3, maxJsonValues: 10 };
  t.doesNotThrow(() => parseJsonBody(Buffer.from(`${" ".repeat(70)}[1,2,3]`), small));
  t.throws(() => parseJsonBody(Buffer.from(`${" ".repeat(70)}[1,2,3,4]`), small), /more than 3 items/);
  t.doesNotThrow(() => parseJsonBody(Buffer.from(`${" ".repeat(70)}[[1,2],[3,4],{"a":[1,2]}]`), small));
  t.throws(() => parseJsonBody(Buffer.from(`${" ".repeat(70)}[[1,2,3],[3,4,5],{"a":[1,2,3]},[1,2]]`), small), /more than 10 JSON values/);
  t.doesNotThrow(() => parseJsonBody(Buffer.from(JSON.stringify({ s: ",".repeat(1000) })), small), "commas in strings do not count");
});

t.test("empty is {}, bad UTF-8 and bad JSON are 400", async (t) => {
  t.same(parseJsonBody(Buffer.alloc(0), limits), {});
  t.throws(() => parseJsonBody(Buffer.from([0x22, 0xc0, 0xaf, 0x22]), limits), /UTF-8/);
  t.throws(() => parseJsonBody(Buffer.from("{"), limits), /not valid JSON/);
  t.throws(() => parseJsonBody(Buffer.from("\ufeff{}"), limits), /not valid JSON/, "a byte-order mark is not JSON");
  t.same(parseJsonBody(Buffer.from(" null "), limits), null);
});

t.test("poisoning keys are refused wherever they are", async (t) => {
  t.throws(() => parseJsonBody(Buffer.from('[{"x":{"__proto__":1}}]'), limits), /__proto__/);
  t.throws(() => parseJsonBody(Buffer.from('{"constructor":{"prototype":{}}}'), limits), /constructor/);
  t.same(parseJsonBody(Buffer.from('{"constructor":{"x":1},"proto":"__proto__"}'), limits), { constructor: { x: 1 }, proto: "__proto__" });
  // Escapes spell the same keys once parsed; the check is made on the parsed value.
  t.throws(() => parseJsonBody(Buffer.from('{"input":{"\\u005f_proto__":{"x":1}}}'), limits), /__proto__/);
  t.throws(() => parseJsonBody(Buffer.from('[{"\\u005F\\u005Fproto\\u005F\\u005F":1}]'), limits), /__proto__/);
  t.throws(() => parseJsonBody(Buffer.from('{"\\u0063onstructor":{"prototype":{}}}'), limits), /constructor/);
  t.throws(() => parseJsonBody(Buffer.from('{"constructo\\u0072":{"protot\\u0079pe":1}}'), limits), /constructor/);
});

t.test("content types", async (t) => {
  t.equal(contentTypeProblem("application/json"), undefined);
  t.equal(contentTypeProblem("application/problem+json; charset=UTF-8"), undefined);
  t.equal(contentTypeProblem(" APPLICATION/JSON ;foo=bar"), undefined);
  t.match(contentTypeProblem("application/json; charset=iso-8859-1"), /charset/);
  t.match(contentTypeProblem("application/jsonx"), /not supported/);
  t.match(contentTypeProblem("text/json"), /not supported/);
  t.match(contentTypeProblem(""), /not supported/);
});
