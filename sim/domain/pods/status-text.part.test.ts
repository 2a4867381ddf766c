import t from "tap";
import fc from "fast-check";
import { dateString } from "./status-text.ts";

t.test("dateString matches Date#toString in UTC", async () => {
  // Tests may use Date (only sim/domain code must not); the UTC getters make it independent of TZ.
  const utc = (ms: number) => {
    const d = new Date(ms);
    const pad = (n: number) => String(n).padStart(2, "0");
    const wd = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][d.getUTCDay()];
    const mo = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][d.getUTCMonth()];
    return `${wd} ${mo} ${pad(d.getUTCDate())} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} GMT+0000 (Coordinated Universal Time)`;
  };
  fc.assert(fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => dateString(ms) === utc(ms)), { numRuns: 2000 });
});
