/**
 * Correct targets whose rate-limit windows give quota back before `t` (docs/conventions.md,
 * rateWindows): sliding windows whose `t` says when the whole quota is back (`sliding-whole`: `t`
 * starts again from `w` with every request, a 429's Retry-After comes before `t`), and a sliding
 * window approximated from two fixed ones (`sliding-weighted`: `r` rises as the previous window's
 * weight falls, Retry-After before or after `t`). Virtual time moves 300 ms before each request, as
 * real time would, so windows give quota back while the rules watch. Every rate-limit rule passes
 * there, the exhaustion rules judged; a limit left unenforced on top of it is still caught.
 */
import t from "tap";
import type { EmulatorBackend } from "../../../sim/http/index.ts";
import type { ApiResponse } from "../../../sim/api/types.ts";
import { startEmbeddedEmulator } from "../../embedded-emulator.ts";
import type { RateWindowMode } from "../../../sim/domain/ratelimit/index.ts";
import { breakBackend, brokenTarget, mapResponse, type Breakage, type BrokenTarget } from "../../test-support/broken-target.ts";
import { runSuite } from "../../test-support/auth/run-suite.ts";

const STEP_MICROS = 300_000;
/** Requests each key sends in the minute before the suite (the other key's minute quota is 60). */
const PRIOR_REQUESTS = 40;

async function startGivingBack(rateWindows: RateWindowMode, breakage?: Breakage): Promise<BrokenTarget> {
  const ticking = (backend: EmulatorBackend): Breakage => (request, next) => {
    backend.advanceTo(backend.now() + STEP_MICROS);
    return breakage ? breakage(request, next) : next(request);
  };
  const { emulator, keys } = await startEmbeddedEmulator(1, (backend) => breakBackend(backend, ticking(backend)), "manual", { rateWindows });
  // A busy previous minute for both keys, then into the next: the windows start part spent, and
  // give quota back while the rules run (the weighted one's previous minute weighs less and less).
  for (const key of [keys.api, keys.other]) {
    for (let i = 0; i < PRIOR_REQUESTS; i++) await (await fetch(`${emulator.baseUrl}/v2/pods`, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer();
  }
  await (await fetch(`${emulator.baseUrl}/_sim/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms: 40_000 }) })).arrayBuffer();
  return brokenTarget(emulator, keys);
}

for (const mode of ["sliding-whole", "sliding-weighted"] as const) {
  t.test(`${mode}: windows giving quota back before t pass every rate-limit rule`, async (t) => {
    const target = await startGivingBack(mode);
    t.teardown(() => target.stop());
    const { report } = await runSuite({ target, only: ["ratelimit.*"] });
    const failed = report.rules.filter((r) => r.status === "fail").map((r) => `${r.id}: ${r.failures[0]?.evidence.expected ?? ""}`);
    t.same(failed, [], "no rate-limit rule fails");
    const status = (id: string) => report.rules.find((r) => r.id === id)?.status;
    for (const id of ["ratelimit.remaining-decreases", "ratelimit.429-when-spent", "ratelimit.retry-after", "ratelimit.429-detail-names-window"]) {
      t.equal(status(id), "pass", `${id} judged and passed`);
    }
  });

  t.test(`${mode}: a limit left unenforced still breaks ratelimit.429-when-spent`, async (t) => {
    // The 429 becomes the 2xx the request would have had; its headers still show the window spent.
    const unenforced: Breakage = (req, next) =>
      mapResponse(next(req), (r: ApiResponse) => {
        if (r.status !== 429) return r;
        const { "retry-after": _drop, ...headers } = r.headers;
        return { status: 200, headers: { ...headers, "content-type": "application/json" }, body: req.path === "/v2/pods" ? { pods: [] } : {} };
      });
    const target = await startGivingBack(mode, unenforced);
    t.teardown(() => target.stop());
    const { report } = await runSuite({ target, only: ["ratelimit.429-when-spent"] });
    const rule = report.rules.find((r) => r.id === "ratelimit.429-when-spent");
    t.equal(rule?.status, "fail", "429-when-spent fails");
    t.match(rule?.failures[0]?.evidence.expected ?? "", /without a 429|yet/, "it says the window was spent and requests were still served");
  });
}
