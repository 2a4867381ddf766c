/**
 * A correct target whose sliding rate-limit windows say in `t` when the whole quota is back
 * (rateWindows=sliding-whole, docs/conventions.md): `r` rises before `t`, `t` starts again from
 * `w` with every request, and a 429's Retry-After (until the request's room is back) comes before
 * `t`. Virtual time moves 300 ms before each request, as real time would, so windows give quota
 * back while the rules watch. Every rate-limit rule passes or skips there, and the exhaustion rules
 * are judged; a limit left unenforced on top of it is still caught.
 */
import t from "tap";
import { startEmulator, type EmulatorBackend } from "../../../sim/http/index.ts";
import { PlatformBackend } from "../../../sim/http/platform-backend.ts";
import type { ApiResponse } from "../../../sim/api/types.ts";
import { embeddedCatalog, embeddedKeys } from "../../embedded.ts";
import { breakBackend, mapResponse, type Breakage, type BrokenTarget } from "../../test-support/broken-target.ts";
import { runSuite } from "../../test-support/auth/run-suite.ts";

const STEP_MICROS = 300_000;

async function startSlidingWhole(breakage?: Breakage): Promise<BrokenTarget> {
  const catalog = embeddedCatalog();
  const ticking = (backend: EmulatorBackend): Breakage => (request, next) => {
    backend.advanceTo(backend.now() + STEP_MICROS);
    return breakage ? breakage(request, next) : next(request);
  };
  const emulator = await startEmulator({
    host: "127.0.0.1",
    port: 0,
    seed: 1,
    clock: "manual",
    control: true,
    createBackend: (o) => {
      const backend = new PlatformBackend({ ...o, catalog, model: { rateWindows: "sliding-whole" } });
      return breakBackend(backend, ticking(backend));
    },
  });
  return {
    rest: emulator.baseUrl,
    serverless: emulator.serverlessUrl,
    keys: embeddedKeys(catalog),
    endpoint: "conformance",
    controlApi: true,
    close: async () => {},
    stop: () => emulator.close(),
  };
}

t.test("sliding windows whose t names the whole quota's return pass every rate-limit rule", async (t) => {
  const target = await startSlidingWhole();
  t.teardown(() => target.stop());
  const { report } = await runSuite({ target, only: ["ratelimit.*"] });
  const failed = report.rules.filter((r) => r.status === "fail").map((r) => `${r.id}: ${r.failures[0]?.evidence.expected ?? ""}`);
  t.same(failed, [], "no rate-limit rule fails");
  const status = (id: string) => report.rules.find((r) => r.id === id)?.status;
  for (const id of ["ratelimit.remaining-decreases", "ratelimit.429-when-spent", "ratelimit.retry-after", "ratelimit.429-detail-names-window"]) {
    t.equal(status(id), "pass", `${id} judged and passed`);
  }
});

t.test("a limit left unenforced on sliding-whole windows still breaks ratelimit.429-when-spent", async (t) => {
  // The 429 becomes the 2xx the request would have had; its headers still show the window spent.
  const unenforced: Breakage = (req, next) =>
    mapResponse(next(req), (r: ApiResponse) => {
      if (r.status !== 429) return r;
      const { "retry-after": _drop, ...headers } = r.headers;
      return { status: 200, headers: { ...headers, "content-type": "application/json" }, body: req.path === "/v2/pods" ? { pods: [] } : {} };
    });
  const target = await startSlidingWhole(unenforced);
  t.teardown(() => target.stop());
  const { report } = await runSuite({ target, only: ["ratelimit.429-when-spent"] });
  const rule = report.rules.find((r) => r.id === "ratelimit.429-when-spent");
  t.equal(rule?.status, "fail", "429-when-spent fails");
  t.match(rule?.failures[0]?.evidence.expected ?? "", /without a 429|yet/, "it says the window was spent and requests were still served");
});
