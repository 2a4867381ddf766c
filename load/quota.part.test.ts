/** The quota read from RateLimit/RateLimit-Policy, the pace that fits it, and the explanations of empty figures. */
import t from "tap";
import { explainResult } from "./explain.ts";
import { describeQuota, quotaBefore429, quotaRate, type Quota } from "./quota.ts";
import { parseRateLimitHeader, parseRateLimitPolicyHeader } from "./rate-limit-watch.ts";
import { builtinScenarios } from "./scenarios/index.ts";

const quota = (rl: string, policy: string): Quota => ({ read: "GET /v2/pods", status: 200, windows: parseRateLimitHeader(rl), policies: parseRateLimitPolicyHeader(policy) });

t.test("RateLimit-Policy is read as an RFC 9651 list; an unreadable header reads as none", async (t) => {
  t.same(parseRateLimitPolicyHeader('"minute";q=60;w=60, "hour";q=3000;w=3600'), [
    { name: "minute", quota: 60, windowS: 60 },
    { name: "hour", quota: 3000, windowS: 3600 },
  ]);
  t.same(parseRateLimitPolicyHeader("minute;q=5"), [{ name: "minute", quota: 5, windowS: undefined }], "a token name, no window");
  t.same(parseRateLimitPolicyHeader('"minute";q=oops;'), []);
  t.same(parseRateLimitPolicyHeader(undefined), []);
});

t.test("the pace that fits: what is left spread to the reset, never above the quota past a reset", async (t) => {
  // 2000 a minute, all left, a minute to go: 33.3/s, less a tenth.
  t.equal(quotaRate(quota('"minute";r=2000;t=60', '"minute";q=2000;w=60'), 10), 30);
  // Half spent with 30 s to go: 1000 / 30 s.
  t.equal(quotaRate(quota('"minute";r=1000;t=30', '"minute";q=2000;w=60'), 10), 30);
  // The window resets within the run: what is left now would allow 200/s, the quota only 20/s.
  t.equal(quotaRate(quota('"second";r=20;t=1', '"second";q=20;w=1'), 5), 18);
  // The tightest window wins.
  t.equal(quotaRate(quota('"minute";r=60;t=60, "hour";r=3000;t=3600', '"minute";q=60;w=60, "hour";q=3000;w=3600'), 10), 0.75, "the hour (0.83/s) is tighter than the minute (1/s)");
  // A spent window still paces (at the floor), and no header means no pace.
  t.equal(quotaRate(quota('"minute";r=0;t=60', '"minute";q=60;w=60'), 10), 0.1);
  t.equal(quotaRate(quota("", ""), 10), undefined);
  // Policy only: its quota over its window.
  t.equal(quotaRate(quota("", '"minute";q=600;w=60'), 10), 9);
});

t.test("the quota in words, and how many requests pass before the first 429", async (t) => {
  const q = quota('"minute";r=12;t=40', '"minute";q=60;w=60');
  t.equal(describeQuota(q), '"minute" 60 per 60 s (12 left, resets in 40 s)');
  t.equal(quotaBefore429(q), 12);
  t.equal(quotaBefore429(quota("", '"minute";q=60;w=60')), 60);
  t.equal(describeQuota(undefined), "no RateLimit or RateLimit-Policy header in its answers");
});

t.test("a scenario without figures says why, and which flag to change", async (t) => {
  const runsync = builtinScenarios.find((s) => s.name === "runsync-near-limit")!;
  const none = { reset: 0, timeout: 0, refused: 0, other: 0 };
  const base = { scenario: runsync, durationS: 3, timeoutS: 30, origin: "http://127.0.0.1:9" };
  t.match(explainResult({ ...base, result: { statuses: {}, errors: none, durationS: 3 } })[0], /no answer within the scenario's duration \(3 s\).*runsync outlasted it.*raise --duration/);
  t.match(explainResult({ ...base, result: { statuses: {}, errors: { ...none, refused: 2 }, durationS: 3 } })[0], /connection refused \(2 time\(s\)\) at http:\/\/127\.0\.0\.1:9.*--target/);
  t.match(explainResult({ ...base, result: { statuses: {}, errors: { ...none, timeout: 1 }, durationS: 3 } })[0], /timed out after 30 s \(--timeout\)/);
  t.match(explainResult({ ...base, result: { statuses: { "404": 5 }, errors: none, durationS: 3 } })[0], /every answer was 404: the target has no route POST \/v2\/\{endpoint\}\/runsync\?wait=1000 \(route missing\)/);
  t.match(explainResult({ ...base, result: { statuses: { "429": 5 }, errors: none, durationS: 3 }, quota: quota('"minute";r=0;t=9', '"minute";q=60;w=60') })[0], /every answer was 429.*"minute" 60 per 60 s.*--respect-rate-limit/);
  t.same(explainResult({ ...base, result: { statuses: { "200": 5, "404": 1 }, errors: none, durationS: 3 } }), [], "figures that mean something need no excuse");
});
