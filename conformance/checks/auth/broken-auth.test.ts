/**
 * Broken targets: the emulator with one auth behaviour broken. The suite must name the rule the
 * breakage breaks, and the failure's curl script, run by itself against that target, must show
 * the failure.
 */
import t, { type Test } from "tap";
import { problemBody } from "../../../sim/api/problem.ts";
import { respond } from "../../../sim/api/types.ts";
import { keyOfRequest, mapResponse, startBroken, withAuthorization, type Breakage, type BrokenTarget } from "../../test-support/auth/broken-target.ts";
import { lastAnswer, replay, runSuite } from "../../test-support/auth/run-suite.ts";

async function brokenRun(t: Test, breakage: Breakage, only: string[], rule: string, shows: (last: string) => boolean): Promise<void> {
  const target: BrokenTarget = await startBroken(breakage);
  t.teardown(() => target.stop());
  const { report, exitCode } = await runSuite({ target, only });
  t.equal(exitCode, 1, "the run fails");
  const result = report.rules.find((r) => r.id === rule);
  t.equal(result?.status, "fail", `${rule} fails`);
  const failure = result?.failures[0];
  t.ok(failure, "with a failure");
  if (!failure) return;
  t.match(failure.evidence.expected, /\S/, "saying what was expected");
  const { stdout } = await replay(failure.reproduction.curl, target.keys);
  t.ok(shows(lastAnswer(stdout)), `the curl script shows the failure:\n${lastAnswer(stdout).slice(0, 600)}`);
}

t.test("a job endpoint that answers without a key breaks auth.missing-key", (t) =>
  brokenRun(
    t,
    (req, next) => (req.path.endsWith("/health") && !req.headers["authorization"]?.trim() ? next(withAuthorization(req, "cpsim_alpha_full_7f3a9c2e41b6d805")) : next(req)),
    ["auth.missing-key"],
    "auth.missing-key",
    (last) => /^HTTP\/1\.1 200/m.test(last),
  ),
);

t.test("a REST 401 that is not problem+json breaks auth.invalid-key", (t) =>
  brokenRun(
    t,
    (req, next) =>
      mapResponse(next(req), (r) => (r.status === 401 && req.path === "/v2/pods" ? { ...r, headers: { ...r.headers, "content-type": "application/json" } } : r)),
    ["auth.invalid-key"],
    "auth.invalid-key",
    (last) => /^HTTP\/1\.1 401/m.test(last) && /^content-type: application\/json/im.test(last),
  ),
);

t.test("a malformed header taken for its last word breaks auth.malformed-key", (t) =>
  brokenRun(
    t,
    // A lax parser: any header whose last word is not a known key still answers, as if the api key were given.
    (req, next) => {
      const header = req.headers["authorization"];
      return header !== undefined && header.trim().split(/\s+/).length > 2 ? next(withAuthorization(req, "cpsim_alpha_full_7f3a9c2e41b6d805")) : next(req);
    },
    ["auth.malformed-key"],
    "auth.malformed-key",
    (last) => !/^HTTP\/1\.1 401/m.test(last) && /^HTTP\/1\.1 \d/m.test(last),
  ),
);

t.test("a read-only key that may run jobs breaks auth.read-only-forbidden", (t) =>
  brokenRun(
    t,
    (req, next) => (req.path.endsWith("/run") && keyOfRequest(req) === "cpsim_alpha_read_2c8e5b1f9a3d6047" ? next(withAuthorization(req, "cpsim_alpha_full_7f3a9c2e41b6d805")) : next(req)),
    ["auth.read-only-forbidden"],
    "auth.read-only-forbidden",
    (last) => /^HTTP\/1\.1 200/m.test(last),
  ),
);

t.test("another account that can read a job breaks auth.account-isolation", (t) =>
  brokenRun(
    t,
    (req, next) =>
      req.path.includes("/status/") && keyOfRequest(req) === "cpsim_beta_full_91d4e6a2c7b3f058" ? next(withAuthorization(req, "cpsim_alpha_full_7f3a9c2e41b6d805")) : next(req),
    ["auth.account-isolation"],
    "auth.account-isolation",
    (last) => /^HTTP\/1\.1 200/m.test(last) && /"status"\s*:\s*"IN_QUEUE"/.test(last),
  ),
);

t.test("a read-only key refused with 404 instead of 403 breaks auth.read-only-forbidden on createPod", (t) =>
  brokenRun(
    t,
    (req, next) =>
      mapResponse(next(req), (r) => (r.status === 403 && req.method === "POST" && req.path === "/v2/pods" ? { ...r, status: 404, body: problemBody(404, "no") } : r)),
    ["auth.read-only-forbidden"],
    "auth.read-only-forbidden",
    (last) => /^HTTP\/1\.1 404/m.test(last),
  ),
);

t.test("job endpoints that refuse the Bearer form break auth.bearer-header", (t) =>
  brokenRun(
    t,
    (req, next) =>
      req.path.endsWith("/health") && /^bearer /i.test(req.headers["authorization"] ?? "") ? respond(problemBodyResponse(401)) : next(req),
    ["auth.bearer-header"],
    "auth.bearer-header",
    (last) => /^HTTP\/1\.1 401/m.test(last),
  ),
);

function problemBodyResponse(status: number) {
  return { status, headers: { "content-type": "application/problem+json" }, body: problemBody(status, "refused") };
}

t.test("another account's purge that empties this account's queue breaks auth.account-isolation", (t) =>
  brokenRun(
    t,
    (req, next) =>
      req.path.endsWith("/purge-queue") && keyOfRequest(req) === "cpsim_beta_full_91d4e6a2c7b3f058" ? next(withAuthorization(req, "cpsim_alpha_full_7f3a9c2e41b6d805")) : next(req),
    ["auth.account-isolation"],
    "auth.account-isolation",
    (last) => /^HTTP\/1\.1 404/m.test(last) || /"status"\s*:\s*"CANCELLED"/.test(last),
  ),
);
