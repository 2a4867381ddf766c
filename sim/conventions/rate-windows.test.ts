/**
 * The open-choice space's `rateWindows` (dimensions.ts, the limiter's window modes) over a real
 * server with a manual clock: the same requests at the same instants read differently in
 * `RateLimit`'s `t` and in a 429's `Retry-After` under each value, and `r` comes back at once
 * (fixed windows) or a request at a time (sliding ones).
 */
import t from "tap";
import { startEmulator } from "../http/index.ts";
import { EMULATOR_CONVENTIONS, type Conventions } from "./index.ts";

interface Seen {
  readonly tAt10: number;
  readonly tAt30: number;
  readonly spentAfter: number;
  readonly retryAfter: string | null;
  readonly tOf429: number;
  readonly rAt71: number;
}

/** acct-beta's minute quota is 60: one request at 10 s, one at 30 s, then the rest of the minute at 30 s, and a read at 71 s. */
async function seen(rateWindows: Conventions["rateWindows"]): Promise<Seen> {
  const emulator = await startEmulator({ host: "127.0.0.1", port: 0, seed: 1, clock: "manual", control: true, conventions: { ...EMULATOR_CONVENTIONS, rateWindows, lists: "bare" } });
  try {
    const key = emulator.apiKeys.find((k) => k.account === "acct-beta" && k.access === "full")!.key;
    const advance = async (ms: number) => void (await (await fetch(`${emulator.baseUrl}/_sim/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms }) })).arrayBuffer());
    const get = async () => {
      const res = await fetch(`${emulator.baseUrl}/v2/pods`, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      const minute = /"minute";r=(\d+);t=(\d+)/.exec(res.headers.get("ratelimit") ?? "");
      return { status: res.status, r: Number(minute?.[1]), t: Number(minute?.[2]), retryAfter: res.headers.get("retry-after") };
    };
    await advance(10_000);
    const at10 = await get();
    await advance(20_000);
    const at30 = await get();
    let spentAfter = 2;
    let last = at30;
    while (last.status === 200 && spentAfter < 100) {
      last = await get();
      if (last.status === 200) spentAfter++;
    }
    await advance(41_000);
    const at71 = await get();
    return { tAt10: at10.t, tAt30: at30.t, spentAfter, retryAfter: last.retryAfter, tOf429: last.t, rAt71: at71.r };
  } finally {
    await emulator.close();
  }
}

t.test("each window mode reads its own t, Retry-After and r, from the same requests", async (t) => {
  t.same(await seen("fixed-aligned"), { tAt10: 50, tAt30: 30, spentAfter: 60, retryAfter: "30", tOf429: 30, rAt71: 59 }, "aligned to the minute: all back at 60 s");
  t.same(await seen("fixed-anchored"), { tAt10: 60, tAt30: 40, spentAfter: 60, retryAfter: "40", tOf429: 40, rAt71: 59 }, "the minute opened at 10 s: all back at 70 s");
  t.same(await seen("sliding"), { tAt10: 60, tAt30: 40, spentAfter: 60, retryAfter: "40", tOf429: 40, rAt71: 0 }, "the request of 10 s leaves at 70 s (and the read at 71 s takes its place); the 59 of 30 s still count");
  t.same(await seen("sliding-whole"), { tAt10: 60, tAt30: 60, spentAfter: 60, retryAfter: "40", tOf429: 60, rAt71: 0 }, "as sliding, but t names the newest request's leaving: 60 s after each, and Retry-After comes before it");
  t.same(await seen("sliding-weighted"), { tAt10: 50, tAt30: 30, spentAfter: 60, retryAfter: "31", tOf429: 30, rAt71: 10 }, "the minute [0, 60 s) spent at 30 s: room for one when the weighted 60 falls to 59, a second into the next minute; at 71 s the 60 count at the weight 49/60, and the read itself: 10 left");
});
