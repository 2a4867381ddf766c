/**
 * Broken targets for the rate-limit rules: the emulator with one rate-limit behaviour broken.
 * Each failure's curl script is replayed against the same target after its windows have reset
 * (virtual time moved on), so the replay spends the window afresh.
 */
import t, { type Test } from "tap";
import type { ApiResponse } from "../../../sim/api/types.ts";
import { keyOfRequest, mapResponse, startBroken, type Breakage, type BrokenTarget } from "../../test-support/auth/broken-target.ts";
import { lastAnswer, replay, runSuite } from "../../test-support/auth/run-suite.ts";

const OTHER = "cpsim_beta_full_91d4e6a2c7b3f058";
const API = "cpsim_alpha_full_7f3a9c2e41b6d805";

async function brokenRun(t: Test, breakage: Breakage, only: string[], rule: string, shows: (last: string) => boolean): Promise<void> {
  const target: BrokenTarget = await startBroken(breakage);
  t.teardown(() => target.stop());
  const { report } = await runSuite({ target, only });
  const result = report.rules.find((r) => r.id === rule);
  t.equal(result?.status, "fail", `${rule} fails`);
  const others = report.rules.filter((r) => r.id !== rule && r.status === "fail").map((r) => r.id);
  t.comment(`also failing: ${others.join(", ") || "(none)"}`);
  const failure = result?.failures[0];
  if (!failure) return;
  await fetch(`${target.rest}/_sim/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms: 3_600_000 }) });
  const { stdout } = await replay(failure.reproduction.curl, target.keys);
  t.ok(shows(lastAnswer(stdout)), `the curl script shows the failure:\n${lastAnswer(stdout).slice(0, 700)}`);
}

const EXHAUSTION = ["ratelimit.429-when-spent", "ratelimit.retry-after", "ratelimit.429-detail-names-window"];

function withHeaders(r: ApiResponse, change: (h: Record<string, string>) => void): ApiResponse {
  const headers = { ...r.headers };
  change(headers);
  return { ...r, headers };
}

t.test("a limit that is never enforced breaks ratelimit.429-when-spent", (t) =>
  brokenRun(
    t,
    // The 429 becomes the 2xx the request would have had; the headers still say the window is spent.
    (req, next) =>
      mapResponse(next(req), (r) => (r.status === 429 ? { status: 200, headers: withHeadersOnly(r), body: req.path === "/v2/pods" ? { pods: [] } : {} } : r)),
    EXHAUSTION,
    "ratelimit.429-when-spent",
    (last) => /^HTTP\/1\.1 200/m.test(last) && /"minute";r=0/.test(last),
  ),
);

function withHeadersOnly(r: ApiResponse): Record<string, string> {
  const { "retry-after": _drop, ...rest } = r.headers;
  return { ...rest, "content-type": "application/json" };
}

t.test("a 429 without Retry-After breaks ratelimit.retry-after", (t) =>
  brokenRun(
    t,
    (req, next) => mapResponse(next(req), (r) => (r.status === 429 ? withHeaders(r, (h) => delete h["retry-after"]) : r)),
    EXHAUSTION,
    "ratelimit.retry-after",
    (last) => /^HTTP\/1\.1 429/m.test(last) && !/^retry-after:/im.test(last),
  ),
);

t.test("a Retry-After shorter than the reset breaks ratelimit.retry-after", (t) =>
  brokenRun(
    t,
    (req, next) => mapResponse(next(req), (r) => (r.status === 429 ? withHeaders(r, (h) => (h["retry-after"] = "1")) : r)),
    EXHAUSTION,
    "ratelimit.retry-after",
    (last) => /^HTTP\/1\.1 429/m.test(last) && /^retry-after: 1\r?$/im.test(last),
  ),
);

t.test("a 429 detail that names no window breaks ratelimit.429-detail-names-window", (t) =>
  brokenRun(
    t,
    (req, next) => mapResponse(next(req), (r) => (r.status === 429 ? { ...r, body: { title: "Too Many Requests", status: 429, detail: "slow down" } } : r)),
    EXHAUSTION,
    "ratelimit.429-detail-names-window",
    (last) => /^HTTP\/1\.1 429/m.test(last) && /"detail":"slow down"/.test(last),
  ),
);

t.test("a policy whose minute window lasts 90 s breaks ratelimit.policy-windows", (t) =>
  brokenRun(
    t,
    (req, next) =>
      mapResponse(next(req), (r) => (r.headers["ratelimit-policy"] ? withHeaders(r, (h) => (h["ratelimit-policy"] = h["ratelimit-policy"].replace(";w=60,", ";w=90,"))) : r)),
    ["ratelimit.policy-windows", "ratelimit.headers-well-formed"],
    "ratelimit.policy-windows",
    (last) => /"minute";q=\d+;w=90/.test(last),
  ),
);

t.test("a RateLimit header without t breaks ratelimit.headers-well-formed", (t) =>
  brokenRun(
    t,
    (req, next) => mapResponse(next(req), (r) => (r.headers["ratelimit"] ? withHeaders(r, (h) => (h["ratelimit"] = h["ratelimit"].replace(/;t=\d+/g, ""))) : r)),
    ["ratelimit.headers-well-formed"],
    "ratelimit.headers-well-formed",
    (last) => /^ratelimit: "minute";r=\d+, /im.test(last),
  ),
);

t.test("rate-limit headers missing from job answers break ratelimit.headers-present", (t) =>
  brokenRun(
    t,
    (req, next) => mapResponse(next(req), (r) => (req.path.endsWith("/health") ? withHeaders(r, (h) => { delete h["ratelimit"]; delete h["ratelimit-policy"]; }) : r)),
    ["ratelimit.headers-present"],
    "ratelimit.headers-present",
    (last) => /^HTTP\/1\.1 200/m.test(last) && !/^ratelimit/im.test(last),
  ),
);

t.test("headers that are not structured fields break ratelimit.structured-fields under strict only", async (t) => {
  // `minute ;r=59;t=60`: RFC 8941 allows no space before `;`, but the meaning still reads tolerantly.
  const breakage: Breakage = (req, next) =>
    mapResponse(next(req), (r) => (r.headers["ratelimit"] ? withHeaders(r, (h) => (h["ratelimit"] = h["ratelimit"].replace(/"(\w+)";/g, "$1 ;"))) : r));
  const target = await startBroken(breakage);
  t.teardown(() => target.stop());
  const only = ["ratelimit.structured-fields", "ratelimit.headers-well-formed", "ratelimit.policy-windows"];
  const lenient = await runSuite({ target, only });
  t.same(lenient.report.rules.filter((r) => r.status === "fail").map((r) => r.id), [], "lenient: the meaning is still read");
  const strict = await runSuite({ target, only, profile: "strict" });
  t.same(strict.report.rules.filter((r) => r.status === "fail").map((r) => r.id), ["ratelimit.structured-fields"], "strict: the syntax fails");
});

t.test("a remaining count that never moves breaks ratelimit.remaining-decreases", (t) => {
  let frozen: string | undefined;
  return brokenRun(
    t,
    (req, next) =>
      mapResponse(next(req), (r) => {
        if (keyOfRequest(req) !== API || !r.headers["ratelimit"]) return r;
        frozen ??= r.headers["ratelimit"];
        return withHeaders(r, (h) => (h["ratelimit"] = frozen as string));
      }),
    ["ratelimit.remaining-decreases"],
    "ratelimit.remaining-decreases",
    (last) => /^HTTP\/1\.1 200/m.test(last) && last.includes(frozen ?? "(never)"),
  );
});

t.test("one account's requests counted against another break ratelimit.per-user", (t) =>
  brokenRun(
    t,
    // The api key's requests are counted for the other account too.
    (req, next) => {
      if (keyOfRequest(req) === API && req.path.endsWith("/health")) next({ ...req, headers: { ...req.headers, authorization: `Bearer ${OTHER}` } });
      return next(req);
    },
    ["ratelimit.per-user"],
    "ratelimit.per-user",
    (last) => /^HTTP\/1\.1 200/m.test(last),
  ),
);

/** The api key's answers with the minute window's r moved by `offset(n)` (n: the answer's number, from 1). */
function minuteShifted(offset: (n: number, req: Parameters<Breakage>[0]) => number): Breakage {
  let n = 0;
  return (req, next) =>
    mapResponse(next(req), (r) => {
      if (keyOfRequest(req) !== API || !r.headers["ratelimit"]) return r;
      const by = offset(++n, req);
      return withHeaders(r, (h) => (h["ratelimit"] = h["ratelimit"]!.replace(/"minute";r=(\d+)/, (_m, v: string) => `"minute";r=${Math.max(0, Number(v) + by)}`)));
    });
}

t.test("a minute window giving quota back before t (r rising, or staying while the others fall) passes ratelimit.remaining-decreases", async (t) => {
  // From the 4th answer on the minute shows 2 more left (a bucket of two left the window), from the 6th one more
  // (a bucket of one left just as the request counted): a sliding window whose t names the whole quota's return.
  const target = await startBroken(minuteShifted((n) => -10 + (n >= 4 ? 2 : 0) + (n >= 6 ? 1 : 0)));
  t.teardown(() => target.stop());
  const { report } = await runSuite({ target, only: ["ratelimit.remaining-decreases"] });
  const rule = report.rules.find((r) => r.id === "ratelimit.remaining-decreases");
  t.equal(rule?.status, "pass", rule?.failures[0]?.evidence.expected ?? "passes");
});

t.test("a minute window that never counts job runs breaks ratelimit.remaining-decreases, the same request sent again showing it", async (t) => {
  let runs = 0;
  const target = await startBroken(minuteShifted((_n, req) => (req.method === "POST" && req.path.endsWith("/run") ? ++runs : runs)));
  t.teardown(() => target.stop());
  const { report } = await runSuite({ target, only: ["ratelimit.remaining-decreases"] });
  const rule = report.rules.find((r) => r.id === "ratelimit.remaining-decreases");
  t.equal(rule?.status, "fail", "fails");
  t.match(rule?.failures[0]?.evidence.expected ?? "", /sent again at once/, "after the same request again");
});
