import t from "tap";
import * as fc from "fast-check";
import { serializeList, type ListMember } from "../../../structured-fields.ts";
import { readLimits, readPolicy } from "./read-rate-limit.ts";
import { parseRateLimit, parseRateLimitPolicy } from "../../../rate-limit-headers.ts";

const name = fc.constantFrom("minute", "hour", "day", "burst");
const int = fc.integer({ min: 0, max: 999_999 });

function member(n: string, params: [string, number][]): ListMember {
  return { kind: "item", value: { type: "string", value: n }, params: params.map(([k, v]) => [k, { type: "integer", value: v }] as const) };
}

t.test("structured-field headers read strictly, with their values", async () => {
  fc.assert(
    fc.property(fc.uniqueArray(fc.tuple(name, int, int), { minLength: 1, maxLength: 4, selector: (x) => x[0] }), (windows) => {
      const limits = readLimits(serializeList(windows.map(([n, r, tt]) => member(n, [["r", r], ["t", tt]]))));
      const policy = readPolicy(serializeList(windows.map(([n, q, w]) => member(n, [["q", q], ["w", w]]))));
      return (
        limits.ok && limits.strict && policy.ok && policy.strict &&
        limits.members.every((m, i) => m.name === windows[i][0] && m.remaining === windows[i][1] && m.reset === windows[i][2]) &&
        policy.members.every((m, i) => m.quota === windows[i][1] && m.window === windows[i][2])
      );
    }),
  );
});

t.test("loose forms read tolerantly, flagged as not strict", async (t) => {
  const r = readLimits('minute ; r = 59 ; t = 12, "hour";r=2999;t=1812');
  t.ok(r.ok);
  if (r.ok) {
    t.notOk(r.strict);
    t.same(r.members.map((m) => [m.name, m.remaining, m.reset]), [["minute", 59, 12], ["hour", 2999, 1812]]);
  }
});

t.test("unreadable headers say why", async (t) => {
  t.same(readLimits(undefined), { ok: false, error: "no RateLimit header" });
  for (const bad of ['"minute";r=-1', '"minute";r=1.5', "minute r 5", '"minute";r=abc']) {
    const r = readLimits(bad);
    t.notOk(r.ok, bad);
  }
  const missing = readPolicy('"minute";w=60');
  t.ok(missing.ok && missing.members[0].quota === undefined, "a missing q reads as absent, for the rule to judge");
});

t.test("each value is read once: the same frozen reading again, with the strict parse's error for ratelimit.structured-fields", async (t) => {
  const value = '"minute";r=59;t=12, "hour";r=2999;t=1812, "day";r=49999;t=80000';
  const first = readLimits(value);
  t.equal(readLimits(value), first, "the same reading, not parsed again");
  t.ok(Object.isFrozen(first) && first.ok && Object.isFrozen(first.members) && Object.isFrozen(first.members[0]), "frozen: callers share it");
  t.equal(first.ok && first.strictError, undefined, "a valid structured field has no strict error");
  const loose = 'minute ; r = 59 ; t = 12';
  let thrown = "";
  try {
    parseRateLimit(loose);
  } catch (e) {
    thrown = (e as Error).message;
  }
  t.not(thrown, "");
  t.equal(readLimits(loose).strictError, thrown, "read loosely, with why it is no structured field");
  const policy = "minute q=60";
  try {
    parseRateLimitPolicy(policy);
  } catch (e) {
    thrown = (e as Error).message;
  }
  const unreadable = readPolicy(policy);
  t.notOk(unreadable.ok);
  t.equal(unreadable.strictError, thrown, "unreadable either way, with the strict parse's error");
  t.same(readLimits(undefined), { ok: false, error: "no RateLimit header" }, "an absent header");
});
