import t from "tap";
import { renderJUnit } from "./junit.ts";
import { sampleReport } from "./sample-report.ts";

/**
 * A strict enough well-formedness check for the XML this writer produces (no DTDs, no CDATA):
 * balanced elements, quoted attributes without raw `<` or `&`, text without raw markup, only the
 * five predefined entities, and no character XML 1.0 forbids.
 */
function assertWellFormed(xml: string): { elements: Map<string, number> } {
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(xml)) throw new Error("forbidden control character");
  const body = xml.replace(/^<\?xml [^?]*\?>\n/, "");
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/y;
  const stack: string[] = [];
  const elements = new Map<string, number>();
  let roots = 0;
  let at = 0;
  while (at < body.length) {
    token.lastIndex = at;
    const m = token.exec(body);
    if (!m) throw new Error(`not well-formed at ${at}: ${body.slice(at, at + 40)}`);
    at = token.lastIndex;
    const [, close, name, attrs, selfClose, text] = m;
    const entities = (s: string) => {
      for (const e of s.match(/&[^;]*;?/g) ?? []) if (!/^&(amp|lt|gt|quot|apos);$/.test(e)) throw new Error(`bad entity ${e}`);
    };
    if (text !== undefined) {
      if (stack.length === 0 && text.trim()) throw new Error("text outside the root");
      entities(text);
      continue;
    }
    entities(attrs ?? "");
    if (close) {
      if (stack.pop() !== name) throw new Error(`unbalanced </${name}>`);
      continue;
    }
    if (stack.length === 0) roots++;
    elements.set(name, (elements.get(name) ?? 0) + 1);
    if (!selfClose) stack.push(name);
  }
  if (stack.length) throw new Error(`unclosed ${stack.join(">")}`);
  if (roots !== 1) throw new Error(`${roots} root elements`);
  return { elements };
}

t.test("JUnit XML is well-formed, one testcase per rule, with failures, skips and errors", async (t) => {
  const xml = renderJUnit(sampleReport);
  t.matchSnapshot(xml, "junit.xml");
  const { elements } = assertWellFormed(xml);
  t.equal(elements.get("testcase"), sampleReport.rules.length);
  t.equal(elements.get("failure"), 1);
  t.equal(elements.get("error"), 1, "the rule cut short by a timeout is an error, not a failure");
  t.equal(elements.get("skipped"), 2, "the skipped rule and the known failure");
  t.match(xml, /<testsuites name="cpsim conform" tests="5" failures="1" errors="1" skipped="2" time="31\.797">/);
  t.match(xml, /<skipped message="needs --restricted-api-key"\/>/);
  t.match(xml, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  t.notMatch(xml, /<script>/);
  t.match(xml, /\\u0007 bell/, "the control character is shown, not written");
  t.match(xml, /seed: 42 path: 3:1:0/);
  t.match(xml, /curl -sS -X POST/);
  t.match(xml, /<property name="verdict" value="FAILED \(1 failed; 5 of 8 rules judged\)"\/>/, "the verdict says how much was judged");
  t.match(xml, /<system-out>FAILED \(1 failed; 5 of 8 rules judged\)<\/system-out>\n  <\/testsuite>/);
});

t.test("the checker itself rejects what it must", async (t) => {
  t.throws(() => assertWellFormed("<a><b></a></b>"));
  t.throws(() => assertWellFormed("<a>x & y</a>"));
  t.throws(() => assertWellFormed('<a b="<"/>'));
  t.throws(() => assertWellFormed("<a>\u0007</a>"));
  t.doesNotThrow(() => assertWellFormed('<a b="&amp;">x &lt; y</a>'));
});
