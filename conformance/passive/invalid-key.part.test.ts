// auth.invalid-key from traffic: a key the target refused with 401 (unknown to it) and later answered 403 was refused as lacking access instead of as invalid; a 403 before the 401 (a key that expired in between) and a 401 to a key in a form the target may refuse are no finding.
import t from "tap";
import { seenFromRecorded, type SeenExchange } from "./answer.ts";
import { PassiveJudge } from "./passive-judge.ts";

let clock = 0;
function x(path: string, status: number, auth: Record<string, string> = { authorization: "Bearer wrong-key-123" }, method = "GET"): SeenExchange {
  const sentAt = (clock += 10);
  const body = status === 401 || status === 403 ? { type: "about:blank", title: status === 401 ? "Unauthorized" : "Forbidden", status } : {};
  return seenFromRecorded(
    { request: { method, url: `http://target.test${path}`, headers: auth }, response: { status, headers: { "content-type": "application/problem+json" }, body: JSON.stringify(body) } },
    { seq: clock / 10, sentAt, answeredAt: sentAt + 5, keyId: "k-wrong" },
  );
}

const RULE = "auth.invalid-key";
function judged(xs: SeenExchange[]) {
  const judge = new PassiveJudge();
  const found = xs.flatMap((e) => judge.judge(e)).filter((f) => f.rule.id === RULE);
  return { found: found.map((f) => `${f.side}: ${f.expected}`), judged: judge.tallies.get(RULE)?.judged ?? 0 };
}

t.test("401 on GraphQL (the key in api_key), then 403 on REST with the same key: found on the target's side", async (t) => {
  const r = judged([x("/graphql?api_key=wrong-key-123", 401, {}, "POST"), x("/v2/pods", 403)]);
  t.equal(r.found.length, 1);
  t.match(r.found[0], /^target: 401 for a key the target does not know .* refused this key with 401 at exchange #\d+ and answered 403 here$/);
});

t.test("401 then 401 keeps the rule; 403 then 401, or a first 401 to a bare key, is no finding", async (t) => {
  t.same(judged([x("/v2/pods", 401), x("/v2/pods", 401)]), { found: [], judged: 1 });
  t.same(judged([x("/v2/pods", 403), x("/v2/pods", 401)]), { found: [], judged: 0 }, "a key may expire between them");
  t.same(judged([x("/v2/pods", 401, { authorization: "wrong-key-123" }), x("/v2/pods", 403)]), { found: [], judged: 0 }, "a bare key may be refused as malformed on REST");
});
