/**
 * The open-choice space's `rateQuotas` (catalog.ts): the quotas a point serves, over a real
 * server, in `RateLimit-Policy`; the windows and their lengths stay the spec's.
 */
import t from "tap";
import { startEmulator } from "../http/index.ts";
import { EMULATOR_CONVENTIONS, type Conventions } from "./index.ts";

async function policy(rateQuotas: Conventions["rateQuotas"]): Promise<string> {
  const emulator = await startEmulator({ host: "127.0.0.1", port: 0, seed: 1, clock: "manual", conventions: { ...EMULATOR_CONVENTIONS, rateQuotas, lists: "bare" } });
  try {
    const key = emulator.apiKeys.find((k) => k.account === "acct-alpha" && k.access === "full")!.key;
    const res = await fetch(`${emulator.baseUrl}/v2/pods`, { headers: { authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    return res.headers.get("ratelimit-policy") ?? "";
  } finally {
    await emulator.close();
  }
}

t.test("each quota value in RateLimit-Policy; windows of 60, 3600, 86400 s under every value", async (t) => {
  const got = {
    fixtures: await policy("fixtures"),
    tight: await policy("tight"),
    generous: await policy("generous"),
    uneven: await policy("uneven"),
  };
  t.equal(got.fixtures, '"minute";q=1000;w=60, "hour";q=20000;w=3600, "day";q=200000;w=86400');
  t.equal(got.tight, '"minute";q=120;w=60, "hour";q=3000;w=3600, "day";q=200000;w=86400');
  t.equal(got.generous, '"minute";q=10000;w=60, "hour";q=200000;w=3600, "day";q=2000000;w=86400');
  t.equal(got.uneven, '"minute";q=1000;w=60, "hour";q=10000;w=3600, "day";q=200000;w=86400');
});
