/**
 * Issue #31, item 4: a rule asserts only what its sentence states. Correct platforms that read
 * the spec otherwise than the emulator (globalNetwork as an object or a string, a GPU catalog
 * that says less than the target knows, a pod placed outside its preferred data centers) are
 * not failed; a planted defect is not passed on a refusal that was for something else.
 */
import t from "tap";
import { join } from "node:path";
import "./index.ts";
import { runOnTestTarget, type Breakage } from "../../test-support/pods/create-test-target.ts";
import { globalNetworkAs, oddFlavorBothAccepted, placedAnywhere, secureOnlyGpus } from "../../test-support/pods/spec-only-targets.ts";

const run = runOnTestTarget;

type Report = Awaited<ReturnType<typeof run>>;
const statusOf = (report: Report, id: string) => report.rules.find((r) => r.id === id);
const failures = (report: Report) => report.rules.filter((r) => r.status === "fail").map((r) => `${r.id}: ${r.failures[0]?.evidence.expected}`);

const GLOBAL = ["catalog.global-network-field", "pods.create.global-networking-data-center"];

t.test("globalNetwork as an object is read by its own flag, never failed for its type (lenient)", async (t) => {
  const report = await run(globalNetworkAs((eligible) => ({ enabled: eligible, ...(eligible ? { cidr: "10.64.0.0/10" } : {}) })), GLOBAL);
  t.same(failures(report), []);
  for (const id of GLOBAL) t.equal(statusOf(report, id)?.status, "pass", `${id} judged: ${statusOf(report, id)?.reason ?? ""}`);
});

t.test("globalNetwork as a string on eligible data centers, absent elsewhere (lenient)", async (t) => {
  const report = await run(globalNetworkAs((eligible) => (eligible ? "10.64.0.0/10" : undefined)), GLOBAL);
  t.same(failures(report), []);
  for (const id of GLOBAL) t.equal(statusOf(report, id)?.status, "pass", `${id} judged: ${statusOf(report, id)?.reason ?? ""}`);
});

t.test("the boolean type is choices.md's: strict still asks for it", async (t) => {
  const report = await run(globalNetworkAs((eligible) => ({ enabled: eligible })), ["catalog.global-network-field"], "strict");
  t.equal(statusOf(report, "catalog.global-network-field")?.status, "fail");
  t.match(statusOf(report, "catalog.global-network-field")?.failures[0]?.evidence.expected, /boolean.*strict/);
});

const SAMPLES = ["pods.create.created-201", "pods.create.status-provisioning", "pods.create.response-required-fields", "pods.create.default-gpu-count"];

t.test("a GPU catalog whose entries say they are secure-only: no body pairs them with COMMUNITY", async (t) => {
  const report = await run(secureOnlyGpus(true), SAMPLES);
  t.same(failures(report), []);
  for (const id of SAMPLES) t.equal(statusOf(report, id)?.status, "pass", id);
  t.notOk(report.requests === 0);
});

t.test("a catalog that says nothing of clouds: a 422 naming /gpu/id is learnt, never a verdict", async (t) => {
  const report = await run(secureOnlyGpus(false), [...SAMPLES, "pods.create.unknown-property", "pods.create.disk-minimum"]);
  t.same(failures(report), []);
  t.equal(statusOf(report, "pods.create.created-201")?.status, "pass", "judged on the bodies the target took");
});

t.test("a pod placed outside its preferred data centers is no failure under lenient; strict asks for it", async (t) => {
  const lenient = await run(placedAnywhere, ["pods.preferred-data-center"]);
  const rule = statusOf(lenient, "pods.preferred-data-center");
  t.equal(rule?.status, "skip");
  t.match(rule?.reason, /does not state.*preferred.*strict/);
  const strict = await run(placedAnywhere, ["pods.preferred-data-center"], "strict");
  t.equal(statusOf(strict, "pods.preferred-data-center")?.status, "fail", "the emulator's placement, judged under strict");
});

const EXCLUSIVE = "pods.create.gpu-cpu-exclusive";

t.test("gpu and cpu both accepted, the flavor's counts unreadable: no pass for a refusal of the vCPU count", async (t) => {
  const report = await run(oddFlavorBothAccepted(false), [EXCLUSIVE]);
  const rule = statusOf(report, EXCLUSIVE);
  t.not(rule?.status, "pass", `not passed: ${rule?.reason ?? rule?.failures[0]?.evidence.expected}`);
  t.equal(rule?.status, "skip");
  t.match(rule?.reason, /both gpu and cpu/);
});

t.test("gpu and cpu both accepted, the flavor's counts readable (4 and 16): the defect is caught", async (t) => {
  const report = await run(oddFlavorBothAccepted(true), [EXCLUSIVE]);
  const rule = statusOf(report, EXCLUSIVE);
  t.equal(rule?.status, "fail");
  t.match(rule?.failures[0]?.evidence.expected, /accepted/);
});

const PLACEMENT = ["pods.create.network-volume-data-center", "pods.create.global-networking-data-center"];

t.test("a body preferring the wrong data center, placed where the constraint holds: kept under lenient, refused only under strict", async (t) => {
  const lenient = await run(placedAnywhere, PLACEMENT);
  t.same(failures(lenient), []);
  for (const id of PLACEMENT) t.equal(statusOf(lenient, id)?.status, "pass", `${id}: ${statusOf(lenient, id)?.reason ?? ""}`);
  const strict = await run(placedAnywhere, ["pods.create.network-volume-data-center"], "strict");
  t.equal(statusOf(strict, "pods.create.network-volume-data-center")?.status, "fail", "strict requires the refusal");
});

t.test("rules asserting more than their sentence are strict-only: an unknown preferred data center, an unknown registry credential", async (t) => {
  const ids = ["pods.create.unknown-data-center", "pods.create.unknown-registry"];
  const ignoring: Breakage = (request, next) => {
    if (request.method !== "POST" || request.path !== "/v2/pods" || typeof request.body !== "object" || request.body === null) return next(request);
    const { dataCenterIds: _d, registry: _r, ...body } = request.body as Record<string, unknown>;
    return next({ ...request, body });
  };
  const lenient = await run(ignoring, ids);
  for (const id of ids) {
    t.equal(statusOf(lenient, id)?.status, "skip", id);
    t.match(statusOf(lenient, id)?.reason, /does not state/);
  }
  const strict = await run(ignoring, ids, "strict");
  for (const id of ids) t.equal(statusOf(strict, id)?.status, "fail", `${id} under strict`);
});

t.test("docs/profiles.md lists every rule that is strict only for asserting more than its sentence", async (t) => {
  const { readFile } = await import("node:fs/promises");
  const { packageRoot } = await import("../../../sim/package-root.ts");
  const { rules } = await import("../../../sim/api/rules/index.ts");
  const page = await readFile(join(packageRoot, "docs/profiles.md"), "utf8");
  const strictOnly = rules.filter((r) => r.strictOnly !== undefined).map((r) => r.id);
  t.ok(strictOnly.length >= 3);
  for (const id of strictOnly) t.match(page, `\`${id}\``, `${id} is in the audit table`);
});
