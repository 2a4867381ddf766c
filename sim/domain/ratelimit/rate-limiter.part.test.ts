import t from "tap";
import fc from "fast-check";
import { RateLimiter } from "./rate-limiter.ts";
import { RATE_WINDOW_MODES } from "./windows.ts";
import { formatRateLimitHeaders, rateLimitDetail } from "./headers.ts";
import { quotaNonNegative } from "../invariants/quota-non-negative.ts";

const S = 1_000_000;
const accounts = [
  { id: "acct-a", rateLimits: { minute: 60, hour: 3000, day: 50000 } },
  { id: "acct-b", rateLimits: { minute: 2, hour: 3, day: 100 } },
  { id: "acct-free", rateLimits: null },
];

t.test("the first request gives exactly the choices.md header values", async (t) => {
  const rl = new RateLimiter(accounts);
  const d = rl.check("acct-a", 41_388 * S);
  t.ok(d.allowed);
  t.same(formatRateLimitHeaders(d), {
    RateLimit: '"minute";r=59;t=12, "hour";r=2999;t=1812, "day";r=49999;t=45012',
    "RateLimit-Policy": '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400',
  });
});

t.test("windows roll over at multiples of their length", async (t) => {
  const rl = new RateLimiter(accounts);
  t.ok(rl.check("acct-b", 10 * S).allowed);
  t.ok(rl.check("acct-b", 59 * S).allowed);
  const denied = rl.check("acct-b", 59.5 * S);
  t.notOk(denied.allowed);
  t.equal(denied.deniedWindow, "minute");
  t.equal(denied.retryAfterSeconds, 1);
  t.equal(rateLimitDetail(denied), "rate limit exceeded for the minute window");
  t.equal(formatRateLimitHeaders(denied)?.["Retry-After"], "1");
  // New minute: one more fits the hour quota of 3, then the hour binds.
  t.ok(rl.check("acct-b", 60 * S).allowed);
  const hour = rl.check("acct-b", 61 * S);
  t.notOk(hour.allowed);
  t.equal(hour.deniedWindow, "hour");
  t.equal(hour.retryAfterSeconds, 3600 - 61);
  t.equal(hour.windows[1].remaining, 0);
  t.ok(rl.check("acct-b", 3600 * S).allowed);
});

t.test("when several windows are exhausted the one resetting last binds", async (t) => {
  const rl = new RateLimiter([{ id: "x", rateLimits: { minute: 1, hour: 1, day: 5 } }]);
  t.ok(rl.check("x", 0).allowed);
  const d = rl.check("x", 1 * S);
  t.equal(d.deniedWindow, "hour");
  t.equal(d.retryAfterSeconds, 3599);
});

t.test("unlimited accounts and exempt keys are never limited and carry no headers", async (t) => {
  const rl = new RateLimiter(accounts);
  let all = true;
  for (let i = 0; i < 1000; i++) all &&= rl.check("acct-free", i * 1000).allowed;
  t.ok(all, "an account without quotas is never limited");
  const d = rl.check("acct-b", 0, { exempt: true });
  t.ok(d.allowed && d.unlimited);
  t.equal(formatRateLimitHeaders(d), undefined);
  t.same(rl.peek("acct-b", 0).windows.map((w) => w.remaining), [2, 3, 100], "exempt requests are not counted");
  t.throws(() => rl.check("nobody", 0), { code: "CPSIM_ERR_UNKNOWN_ACCOUNT" });
});

t.test("fixed-anchored: a window opens at the first request and lasts its length", async (t) => {
  const rl = new RateLimiter(accounts, { windows: "fixed-anchored" });
  t.same(rl.peek("acct-b", 5 * S).windows.map((w) => w.resetSeconds), [60, 3600, 86400], "before any request, t is a whole window");
  const first = rl.check("acct-b", 10 * S);
  t.same(first.windows.map((w) => [w.remaining, w.resetSeconds]), [[1, 60], [2, 3600], [99, 86400]]);
  t.ok(rl.check("acct-b", 59 * S).allowed);
  const denied = rl.check("acct-b", 59.5 * S);
  t.equal(denied.deniedWindow, "minute");
  t.equal(denied.retryAfterSeconds, 11, "until 70 s, where the minute that opened at 10 s closes (the aligned minute would say 1)");
  t.equal(denied.windows[0]!.resetSeconds, 11);
  t.notOk(rl.check("acct-b", 69.9 * S).allowed);
  const next = rl.check("acct-b", 70 * S);
  t.ok(next.allowed, "a new minute opens at 70 s");
  t.equal(next.windows[0]!.resetSeconds, 60);
  const hour = rl.check("acct-b", 71 * S);
  t.equal(hour.deniedWindow, "hour");
  t.equal(hour.retryAfterSeconds, 3610 - 71, "the hour opened at 10 s");
});

t.test("sliding: a request counts for the last minute; t until the oldest leaves, Retry-After until one fits", async (t) => {
  const rl = new RateLimiter(accounts, { windows: "sliding" });
  t.ok(rl.check("acct-b", 10 * S).allowed);
  const second = rl.check("acct-b", 40 * S);
  t.same(second.windows[0], { window: "minute", quota: 2, remaining: 0, resetSeconds: 30, windowSeconds: 60 });
  const denied = rl.check("acct-b", 50 * S);
  t.equal(denied.deniedWindow, "minute");
  t.equal(denied.retryAfterSeconds, 20);
  t.equal(denied.windows[0]!.resetSeconds, 20);
  t.equal(rl.peek("acct-b", 70 * S).windows[0]!.remaining, 1, "at 70 s the request of 10 s has left, the one of 40 s still counts");
  t.equal(rl.peek("acct-b", 100 * S).windows[0]!.remaining, 2);
  t.ok(rl.check("acct-b", 70 * S).allowed);
  t.equal(rl.check("acct-b", 71 * S).deniedWindow, "hour");
});

t.test("the same requests give the same decisions in every mode (no state outside the clock and the counts)", async (t) => {
  for (const mode of RATE_WINDOW_MODES) {
    const run = () => {
      const rl = new RateLimiter(accounts, { windows: mode });
      return [0, 1, 30, 59, 61, 62, 125, 4000].map((s) => formatRateLimitHeaders(rl.check("acct-b", s * S)));
    };
    t.same(run(), run(), mode);
  }
});

t.test("property, every window mode: remaining never negative, allowed iff every window had room, waiting Retry-After is enough; r never rises before t and Retry-After reaches it, but where t names the whole quota's return (then the quota is whole at t) or the previous window counts at a falling weight", async () => {
  for (const mode of RATE_WINDOW_MODES) fc.assert(
    fc.property(
      fc.record({ minute: fc.integer({ min: 1, max: 5 }), hour: fc.integer({ min: 1, max: 20 }), day: fc.integer({ min: 1, max: 50 }) }),
      fc.array(fc.integer({ min: 0, max: 200 * S }), { minLength: 1, maxLength: 200 }),
      (limits, gaps) => {
        const rl = new RateLimiter([{ id: "p", rateLimits: limits }], { windows: mode });
        const wholeReturn = mode === "sliding-whole";
        const weighted = mode === "sliding-weighted";
        let now = 0;
        let last: { at: number; windows: readonly { remaining: number; resetSeconds: number }[] } | undefined;
        for (const gap of gaps) {
          now += gap;
          const before = rl.peek("p", now).windows;
          // A window's remaining count rises only once its t has run out (what the suite's remaining-count rules read t as).
          if (last !== undefined && !wholeReturn && !weighted) for (const [i, w] of before.entries()) if (w.remaining > last.windows[i]!.remaining && now - last.at < (last.windows[i]!.resetSeconds - 1) * S) return false;
          const d = rl.check("p", now);
          last = { at: now, windows: d.windows };
          if (quotaNonNegative.check({ quotas: rl.snapshot(now) }).length > 0) return false;
          const room = before.every((w) => w.remaining > 0);
          if (d.allowed !== room) return false;
          for (const w of d.windows) if (w.remaining < 0 || w.remaining > w.quota || w.resetSeconds < 1 || w.resetSeconds > w.windowSeconds) return false;
          if (!d.allowed) {
            const bound = d.windows.find((w) => w.window === d.deniedWindow);
            if (bound === undefined || bound.remaining !== 0) return false;
            if (!wholeReturn && !weighted && (d.retryAfterSeconds ?? 0) < bound.resetSeconds) return false;
            if (wholeReturn && ((d.retryAfterSeconds ?? 0) > bound.resetSeconds || rl.peek("p", now + bound.resetSeconds * S).windows[0]!.remaining !== bound.quota && bound.window === "minute")) return false;
            if ((d.retryAfterSeconds ?? 0) < 1 || (d.retryAfterSeconds ?? 0) > (weighted ? 2 : 1) * bound.windowSeconds) return false;
            // Waiting Retry-After seconds is enough.
            if (!rl.peek("p", now + (d.retryAfterSeconds ?? 0) * S).windows.every((w) => w.remaining > 0)) return false;
          }
        }
        return true;
      },
    ),
    { numRuns: 300 },
  );
});
