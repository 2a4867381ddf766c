/**
 * A family target (start-family.ts, behind bench:space and `cpsim mutation --conventions`) runs
 * its point's model options: under `rateWindows=fixed-anchored` the other key's minute opens at its
 * first request (t = 60 ten seconds after start), under the emulator's aligned windows it ends at
 * the whole minute (t = 50).
 */
import t from "tap";
import { EMULATOR_CONVENTIONS } from "../../sim/conventions/index.ts";
import { startFamilyTarget } from "./start-family.ts";

async function minuteT(rateWindows: "fixed-aligned" | "fixed-anchored"): Promise<string | undefined> {
  const target = await startFamilyTarget({ family: { ...EMULATOR_CONVENTIONS, rateWindows } });
  try {
    await (await fetch(`${target.rest}/_sim/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms: 10_000 }) })).arrayBuffer();
    const res = await fetch(`${target.serverless}/v2/conformance/health`, { headers: { authorization: `Bearer ${target.keys.other}` } });
    await res.arrayBuffer();
    return /"minute";r=\d+;t=(\d+)/.exec(res.headers.get("ratelimit") ?? "")?.[1];
  } finally {
    await target.stop();
  }
}

t.test("the family target's rate limiter counts as its point's rateWindows says", async (t) => {
  t.equal(await minuteT("fixed-aligned"), "50");
  t.equal(await minuteT("fixed-anchored"), "60");
});
