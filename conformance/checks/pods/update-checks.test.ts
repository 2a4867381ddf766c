/**
 * The PATCH checks against the emulator: all pass under both profiles; a target without PATCH
 * fails none under lenient; and against emulators broken in one mount rule each, that rule fails
 * with a curl reproduction showing the failure when bash runs it.
 */
import t from "tap";
import "./update-rules.ts";
import "./update-mounts-unchanged.ts";
import type { ConformanceReport } from "../../../reports/conformance-report.ts";
import { replay, runChecks, startTarget, type Breakage } from "../../test-support/pods/lifecycle-test-target.ts";

const isPatch = (method: string, path: string) => method === "PATCH" && /^\/v2\/pods\/[^/]+$/.test(path);

function summary(report: ConformanceReport): string {
  return report.rules.map((r) => `${r.id}: ${r.status}${r.reason ? ` (${r.reason})` : ""}${r.failures[0] ? ` ${r.failures[0].evidence.expected}` : ""}`).join("\n");
}

t.test("every PATCH rule passes against the emulator, lenient and strict", async (t) => {
  const target = await startTarget();
  t.teardown(() => target.close());
  for (const profile of ["lenient", "strict"] as const) {
    const report = await runChecks(target, "pods.update.*", profile);
    t.equal(report.summary.failed, 0, `${profile}:\n${summary(report)}`);
    t.equal(report.targetErrors.length, 0);
    const unjudged = report.rules.filter((r) => r.status === "skip" && !/choices\.md/.test(r.reason ?? ""));
    t.same(unjudged.map((r) => `${r.id}: ${r.reason}`), [], `${profile}: every rule is judged`);
  }
});

t.test("a target without PATCH /v2/pods/{id} fails no rule under lenient", async (t) => {
  const target = await startTarget({
    request: (req) => (isPatch(req.method, req.path) ? { status: 405, headers: { allow: "GET, DELETE" }, body: { title: "Method Not Allowed", status: 405, detail: "no PATCH" } } : undefined),
  });
  t.teardown(() => target.close());
  const report = await runChecks(target, "pods.update.*", "lenient");
  t.equal(report.summary.failed, 0, summary(report));
  t.ok(report.rules.filter((r) => r.status === "skip").every((r) => /PATCH|choices/.test(r.reason ?? "")), "skipped, saying why");
});

interface BrokenCase {
  readonly name: string;
  readonly rule: string;
  readonly breakage: Breakage;
  readonly shows: RegExp;
}

const cases: BrokenCase[] = [
  {
    name: "an empty network array accepted",
    rule: "pods.update.network-empty-array",
    breakage: {
      request: (req) => {
        const mounts = (req.body as { mounts?: { network?: unknown[] } } | undefined)?.mounts;
        if (!isPatch(req.method, req.path) || !Array.isArray(mounts?.network) || mounts.network.length > 0) return undefined;
        const { mounts: _dropped, ...rest } = req.body as Record<string, unknown>;
        return { ...req, body: rest };
      },
    },
    shows: /### 2\/2 PATCH \S+\s+HTTP\/1\.1 200/,
  },
  {
    name: "a partial mount entry answered 400 instead of the spec's 422",
    rule: "pods.update.mount-partial-entry",
    breakage: {
      response: (req, res) =>
        isPatch(req.method, req.path) && res.status === 422 ? { ...res, status: 400, body: { ...(res.body as object), status: 400, title: "Bad Request" } } : res,
    },
    shows: /### 2\/2 PATCH \S+\s+HTTP\/1\.1 400/,
  },
  {
    name: "a changed volumeId accepted",
    rule: "pods.update.volume-id-immutable",
    breakage: {
      request: (req) => {
        const network = (req.body as { mounts?: { network?: Array<{ volumeId?: string; path?: string }> } } | undefined)?.mounts?.network;
        if (!isPatch(req.method, req.path) || !Array.isArray(network) || network.length !== 1) return undefined;
        // Answers as if the volume had changed, without the model ever seeing it.
        return { status: 200, headers: { "content-type": "application/json" }, body: { id: req.path.split("/")[3], mounts: { network } } };
      },
    },
    shows: /### 2\/2 PATCH \S+\s+HTTP\/1\.1 200/,
  },
  {
    name: "mounts {} answered as if the mount were gone",
    rule: "pods.update.mounts-omitted-unchanged",
    breakage: {
      response: (req, res) => {
        const mounts = (req.body as { mounts?: object } | undefined)?.mounts;
        if (!isPatch(req.method, req.path) || res.status !== 200 || mounts === undefined || Object.keys(mounts).length > 0) return res;
        return { ...res, body: { ...(res.body as object), mounts: {} } };
      },
    },
    shows: /PATCH \S+\s+HTTP\/1\.1 200[^{]*\{[^\n]*"mounts":\{\}/,
  },
];

for (const c of cases) {
  t.test(`broken: ${c.name} fails ${c.rule}, and its curl script shows it`, async (t) => {
    const target = await startTarget(c.breakage);
    t.teardown(() => target.close());
    const report = await runChecks(target, c.rule, "lenient");
    const failure = report.rules.find((r) => r.id === c.rule && r.status === "fail")?.failures[0];
    if (!failure) return t.fail(`${c.rule} did not fail:\n${summary(report)}`);
    t.comment(failure.evidence.expected);
    t.notMatch(failure.reproduction.curl, new RegExp(target.keys.api), "no key in the script");
    const out = await replay(failure, target);
    t.match(out, c.shows, "the replay shows the failure");
  });
}

t.test("a target that takes only http and tcp ports: mounts {} is never blamed for a refused port (issue 22.3)", async (t) => {
  // The spec lists no port protocols: this target refuses udp with 422 naming /ports/N, as a
  // correct implementation may. A body {ports: ["1/udp"], mounts: {}} it refuses says nothing of mounts.
  const udp = (body: unknown) => ((body as { ports?: unknown } | undefined)?.ports as unknown[] | undefined)?.findIndex((p) => typeof p === "string" && p.endsWith("/udp")) ?? -1;
  let refusedWithEmptyMounts = 0;
  const target = await startTarget({
    request: (req) => {
      const at = isPatch(req.method, req.path) ? udp(req.body) : -1;
      if (at < 0) return undefined;
      if ((req.body as { mounts?: unknown }).mounts !== undefined) refusedWithEmptyMounts++;
      return { status: 422, headers: { "content-type": "application/problem+json" }, body: { title: "Unprocessable Entity", status: 422, detail: `/ports/${at}: protocol must be http or tcp` } };
    },
  });
  t.teardown(() => target.close());
  for (const seed of [1, 2, 3]) {
    const report = await runChecks(target, "pods.update.mounts-omitted-unchanged", "lenient", undefined, seed);
    t.equal(report.summary.failed, 0, `seed ${seed}: ${summary(report)}`);
    t.equal(report.rules[0]?.status, "pass", `seed ${seed}: judged on the bodies the target accepts`);
  }
  t.ok(refusedWithEmptyMounts > 0, `the target refused ${refusedWithEmptyMounts} PATCH bodies with a udp port and mounts, and none was blamed on mounts`);
  const all = await runChecks(target, "pods.update.*", "lenient");
  t.equal(all.summary.failed, 0, `no PATCH rule fails on this correct target:\n${summary(all)}`);
  const unjudged = all.rules.filter((r) => r.status === "skip" && !/choices\.md/.test(r.reason ?? ""));
  t.same(unjudged.map((r) => `${r.id}: ${r.reason}`), [], "and every one is judged on the bodies it refused for the rule's own reason");
});
