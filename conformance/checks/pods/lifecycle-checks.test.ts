/**
 * The lifecycle checks against the emulator: all pass under both profiles; a target without the
 * choices.md routes fails no spec rule; and against emulators broken in one behaviour each, the
 * right rule fails with a curl reproduction that shows the failure when bash runs it.
 */
import t from "tap";
import "./lifecycle-register.ts";
import "./lifecycle-locked.ts";
import "./lifecycle-host-taken.ts";
import "./lifecycle-action-body.ts";
import "./lifecycle-not-found.ts";
import type { ConformanceReport } from "../../../reports/conformance-report.ts";
import type { ApiRequest, ApiResponse } from "../../../sim/api/types.ts";
import type { EmulatorBackend } from "../../../sim/http/index.ts";
import { editPods, replay, runChecks, startTarget, type Breakage } from "../../test-support/pods/lifecycle-test-target.ts";

const isPodsRoute = (path: string) => path.startsWith("/v2/pods");
const podEdit = (edit: (pod: Record<string, any>) => void): Breakage => ({
  response: (req, res) => (isPodsRoute(req.path) ? editPods(res, edit) : res),
});

function failed(report: ConformanceReport, ruleId: string) {
  return report.rules.find((r) => r.id === ruleId && r.status === "fail")?.failures[0];
}

function summary(report: ConformanceReport): string {
  return report.rules.map((r) => `${r.id}: ${r.status}${r.reason ? ` (${r.reason})` : ""}${r.failures[0] ? ` ${r.failures[0].evidence.expected}` : ""}`).join("\n");
}

t.test("a pod on a network volume is judged however few runs the lifecycle model gets", async (t) => {
  // One run per property: its draws alone give a pod a network mount about one time in four.
  const target = await startTarget();
  t.teardown(() => target.close());
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const report = await runChecks(target, "pods.network-volume-same-data-center", "lenient", 1, seed);
    const r = report.rules.find((x) => x.id === "pods.network-volume-same-data-center");
    t.equal(r?.status, "pass", `seed ${seed}: judged and passed`, { reason: r?.reason });
  }
});

t.test("the rules on globally networked pods are judged at one run, whatever the draws", async (t) => {
  const target = await startTarget();
  t.teardown(() => target.close());
  const rules = ["pods.global-networking-enabled-derived", "pods.global-networking-dns-form"];
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const report = await runChecks(target, rules, "lenient", 1, seed);
    for (const id of rules) {
      const r = report.rules.find((x) => x.id === id);
      t.equal(r?.status, "pass", `seed ${seed}: ${id} judged and passed`, { reason: r?.reason });
    }
  }
});

t.test("... also when the target has no capacity for the first two pods on a volume", async (t) => {
  let refused = 0;
  const target = await startTarget({
    request: (req) => {
      const mounts = (req.body as { mounts?: { network?: unknown } } | undefined)?.mounts;
      if (req.method !== "POST" || req.path !== "/v2/pods" || mounts?.network === undefined || refused >= 2) return undefined;
      refused++;
      return { status: 422, headers: { "content-type": "application/problem+json" }, body: { title: "Unprocessable Entity", status: 422, detail: "no capacity for this pod right now" } };
    },
  });
  t.teardown(() => target.close());
  // Seeds whose single drawn run has no pod on a volume (the case above).
  for (const seed of [3, 6]) {
    refused = 0;
    const report = await runChecks(target, "pods.network-volume-same-data-center", "lenient", 1, seed);
    const r = report.rules.find((x) => x.id === "pods.network-volume-same-data-center");
    t.equal(refused, 2, `seed ${seed}: two creates on a volume refused`);
    t.equal(r?.status, "pass", `seed ${seed}: judged and passed`, { reason: r?.reason });
  }
});

t.test("every lifecycle rule passes against the emulator, lenient and strict", async (t) => {
  const target = await startTarget();
  t.teardown(() => target.close());
  const lenient = await runChecks(target, "pods.*", "lenient");
  t.equal(lenient.summary.failed, 0, summary(lenient));
  t.equal(lenient.targetErrors.length, 0, "no target error");
  for (const r of lenient.rules) {
    if (r.status === "skip") t.match(r.reason, /choices\.md|checked only under --profile strict/, `${r.id} is skipped only as a choice (or a rule asserting more than its sentence) under lenient`);
  }
  // Each profile on an emulator of its own: the strict run's seeded draws (and so the transitions it
  // exercises) must not depend on what the lenient run left behind (virtual time, stock).
  const fresh = await startTarget();
  t.teardown(() => fresh.close());
  const strict = await runChecks(fresh, "pods.*", "strict");
  t.equal(strict.summary.failed, 0, summary(strict));
  t.same(strict.rules.filter((r) => r.status !== "pass").map((r) => `${r.id}: ${r.reason}`), [], "every rule is judged under strict");
  t.ok(strict.coverage.transitions.filter((x) => x.machine === "pod").every((x) => x.exercised), "the spec's pod transitions are exercised", {
    found: strict.coverage.transitions.filter((x) => x.machine === "pod" && !x.exercised),
  });
});

t.test("a target without the action, DELETE and PATCH routes fails no rule under lenient", async (t) => {
  const missing: ApiResponse = { status: 404, headers: { "content-type": "application/problem+json" }, body: { title: "Not Found", status: 404, detail: "no such route" } };
  const target = await startTarget({
    request: (req) => (/^\/v2\/pods\/[^/]+(\/action)?$/.test(req.path) && req.method !== "GET" ? missing : undefined),
  });
  t.teardown(() => target.close());
  const report = await runChecks(target, "pods.*", "lenient");
  t.equal(report.summary.failed, 0, summary(report));
  t.equal(report.targetErrors.length, 0);
  const locked = report.rules.find((r) => r.id === "pods.locked-no-stop");
  t.equal(locked?.status, "skip", "the lock cannot be set: skipped with a reason");
});

interface BrokenCase {
  readonly name: string;
  readonly rule: string;
  readonly profile: "lenient" | "strict";
  readonly breakage: Breakage;
  /** What the replayed script's output shows. */
  readonly shows: RegExp;
}

/** The pod a POST /v2/pods/{id}/action {"action": "start"} names, as the real backend has it, when it is TERMINATED. */
function terminatedStartTarget(req: ApiRequest, inner: EmulatorBackend): Record<string, any> | undefined {
  const m = /^\/v2\/pods\/([^/]+)\/action$/.exec(req.path);
  if (!m || req.method !== "POST" || (req.body as { action?: unknown } | undefined)?.action !== "start") return undefined;
  const read = inner.handle({ ...req, method: "GET", path: `/v2/pods/${m[1]}`, body: undefined });
  const pod = read.kind === "response" && read.response.status === 200 ? (read.response.body as Record<string, any>) : undefined;
  return pod?.status === "TERMINATED" ? pod : undefined;
}

const JSON_HEADERS = { "content-type": "application/json" };

/** Answers 200 with the pod, unchanged, to a start of a TERMINATED pod (the emulator answers 409); `seen` counts them. */
function acceptStartOfTerminated(seen = { count: 0 }): Breakage {
  return {
    request: (req, inner) => {
      const pod = terminatedStartTarget(req, inner);
      if (pod) seen.count++;
      return pod ? { status: 200, headers: JSON_HEADERS, body: pod } : undefined;
    },
  };
}

/** Answers 200 to a start of a TERMINATED pod, and from then on reads that pod STARTING: a revival. */
function reviveTerminated(): Breakage {
  const revived = new Set<string>();
  return {
    request: (req, inner) => {
      const pod = terminatedStartTarget(req, inner);
      if (!pod) return undefined;
      revived.add(pod.id);
      return { status: 200, headers: JSON_HEADERS, body: { ...pod, status: "STARTING" } };
    },
    response: (req, res) => (req.method === "GET" && isPodsRoute(req.path) ? editPods(res, (p) => revived.has(p.id) && (p.status = "STARTING")) : res),
  };
}

const cases: BrokenCase[] = [
  {
    name: "an EXITED pod that still costs money",
    rule: "pods.cost-zero-when-stopped",
    profile: "lenient",
    breakage: podEdit((p) => {
      if (p.status === "EXITED") p.cost = 1.5;
    }),
    shows: /"status":"EXITED"[^\n]*"cost":1\.5/,
  },
  {
    name: "runtime metrics while PROVISIONING",
    rule: "pods.runtime-null-unless-running",
    profile: "lenient",
    breakage: podEdit((p) => {
      if (p.status === "PROVISIONING") p.runtime = { uptime: 0 };
    }),
    shows: /"status":"PROVISIONING"[^\n]*"runtime":\{"uptime":0\}/,
  },
  {
    name: "a stopped pod that reads PROVISIONING again by itself",
    rule: "pods.transition-legal",
    profile: "lenient",
    breakage: {
      response: (req, res) => (req.method === "GET" && isPodsRoute(req.path) ? editPods(res, (p) => p.status === "EXITED" && (p.status = "PROVISIONING")) : res),
    },
    shows: /"status":"EXITED"[\s\S]*### \d+\/\d+ GET \S+\s+HTTP\/1\.1 200[^{]*\{[^\n]*"status":"PROVISIONING"/,
  },
  {
    name: "internalDns not of the form <pod_id>.<domain>",
    rule: "pods.global-networking-dns-form",
    profile: "lenient",
    breakage: podEdit((p) => {
      if (p.globalNetworking?.internalDns) p.globalNetworking.internalDns = `pod-${p.id}`;
    }),
    shows: /"internalDns":"pod-/,
  },
  {
    name: "a lock that does not stop a stop",
    rule: "pods.locked-no-stop",
    profile: "lenient",
    breakage: {
      request: (req, inner) => {
        const m = /^\/v2\/pods\/([^/]+)\/action$/.exec(req.path);
        if (m && req.method === "POST") inner.handle({ ...req, method: "PATCH", path: `/v2/pods/${m[1]}`, body: { locked: false } });
        return undefined;
      },
    },
    shows: /### \d+\/\d+ POST \S+\/action\s+HTTP\/1\.1 200[\s\S]*"status":"EXITED"/,
  },
  {
    name: "DELETE answering 200 with the pod",
    rule: "pods.delete.no-content",
    profile: "strict",
    breakage: {
      response: (req, res) => (req.method === "DELETE" && res.status === 204 ? { ...res, status: 200, body: { deleted: true } } : res),
    },
    shows: /### \d+\/\d+ DELETE \S+\s+HTTP\/1\.1 200[\s\S]*"deleted":true/,
  },
  {
    name: "restart allowed in any status",
    rule: "pods.action.allowed-in-status",
    profile: "strict",
    breakage: {
      response: (req, res) => (req.path.endsWith("/action") && res.status === 409 ? { status: 200, headers: res.headers, body: {} } : res),
    },
    shows: /### \d+\/\d+ POST \S+\/action\s+HTTP\/1\.1 200/,
  },
  {
    name: "start of a TERMINATED pod answered 200 (strict: the model refuses it)",
    rule: "pods.action.allowed-in-status",
    profile: "strict",
    breakage: acceptStartOfTerminated(),
    shows: /### \d+\/\d+ POST \S+\/action\s+HTTP\/1\.1 200[^{]*\{[^\n]*"status":"TERMINATED"/,
  },
  {
    name: "a TERMINATED pod that a start brings back",
    rule: "pods.transition-legal",
    profile: "lenient",
    breakage: reviveTerminated(),
    shows: /"status":"TERMINATED"[\s\S]*### \d+\/\d+ POST \S+\/action\s+HTTP\/1\.1 200[^{]*\{[^\n]*"status":"STARTING"/,
  },
];

t.test("lenient accepts both readings of a start of a TERMINATED pod: refused, or accepted leaving it TERMINATED", async (t) => {
  const seen = { count: 0 };
  const target = await startTarget(acceptStartOfTerminated(seen));
  t.teardown(() => target.close());
  const report = await runChecks(target, ["pods.action.allowed-in-status", "pods.transition-legal"], "lenient");
  t.ok(seen.count > 0, `the run started a TERMINATED pod (${seen.count} times)`);
  t.equal(report.rules.find((r) => r.id === "pods.transition-legal")?.status, "pass", "the pod stayed TERMINATED: no illegal move");
  t.not(report.rules.find((r) => r.id === "pods.action.allowed-in-status")?.status, "fail", "the action's answer is choices.md's, not judged under lenient");
});

for (const c of cases) {
  t.test(`broken: ${c.name} fails ${c.rule}, and its curl script shows it`, async (t) => {
    const target = await startTarget(c.breakage);
    t.teardown(() => target.close());
    const report = await runChecks(target, c.rule, c.profile);
    const failure = failed(report, c.rule);
    if (!failure) return t.fail(`${c.rule} did not fail:\n${summary(report)}`);
    t.match(failure.reproduction.curl, /^#!\/usr\/bin\/env bash/);
    t.notMatch(failure.reproduction.curl, new RegExp(target.keys.api), "no key in the script");
    t.comment(failure.evidence.expected);
    const out = await replay(failure, target);
    t.match(out, c.shows, `the replay shows the failure:\n${failure.evidence.expected}`);
  });
}
