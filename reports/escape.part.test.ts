import t from "tap";
import { escapeHtml, escapeXml } from "./escape.ts";

t.test("HTML escaping covers markup and both quotes", async (t) => {
  t.equal(escapeHtml(`<a href="x" title='y'>&</a>`), "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
  t.equal(escapeHtml(42), "42");
  t.equal(escapeHtml("bell\u0007 del\u007f tab\t"), "bell\\u0007 del\\u007f tab\t");
});

t.test("XML escaping also makes forbidden characters visible", async (t) => {
  t.equal(escapeXml(`a<b>&"'`), "a&lt;b&gt;&amp;&quot;&apos;");
  t.equal(escapeXml("bell\u0007 nul\u0000"), "bell\\u0007 nul\\u0000");
  t.equal(escapeXml("tab\tnl\ncr\r"), "tab\tnl\ncr\r", "whitespace XML allows is kept");
  t.equal(escapeXml("lone \uD800 surrogate"), "lone \\ud800 surrogate");
  t.equal(escapeXml("pair 😀"), "pair 😀", "a valid surrogate pair is kept");
});
