// The same client traffic through the proxy to the emulator with a documented defect switched on: the defect's rule is found, on the target's side.
import t from "tap";
import { defectByName } from "../../sim/defects/index.ts";
import { proxyExitCode } from "./exit-code.ts";
import { describe, emulatorBehindProxy } from "../test-support/proxy/setup.ts";
import { jobSession, restSession } from "../test-support/proxy/traffic.ts";

const CASES: readonly { defect: string; session: "rest" | "jobs" }[] = [
  { defect: "not-found-plain-json", session: "rest" },
  { defect: "create-starts-running", session: "rest" },
  { defect: "ratelimit-without-reset", session: "rest" },
  { defect: "terminated-comes-back", session: "rest" },
  { defect: "run-answers-queued", session: "jobs" },
  { defect: "cancel-answers-cancelling", session: "jobs" },
  { defect: "health-counters-strings", session: "jobs" },
];

for (const c of CASES) {
  const rule = defectByName(c.defect)!.rule;
  t.test(`--defect ${c.defect}: the proxy finds ${rule} in the traffic`, async (t) => {
    const s = await emulatorBehindProxy(t, { defects: [c.defect] });
    await (c.session === "rest" ? restSession(s) : jobSession(s));
    const { report, lateFindings } = await s.proxy.stop();
    const all = [...s.findings, ...lateFindings];
    const hit = all.filter((f) => f.rule.id === rule);
    t.ok(hit.length > 0, `${rule} found; found: ${describe(all).join(" | ") || "nothing"}`);
    t.ok(hit.every((f) => f.side === "target"), "the target's finding");
    t.equal(report.rules.find((r) => r.id === rule)?.status, "fail", "failed in the report");
    t.equal(proxyExitCode(report, "target"), 1, "exit 1 with --fail-on target");
    t.equal(proxyExitCode(report, "client"), 0, "exit 0 with --fail-on client: the target's finding is not the client's");
    t.equal(proxyExitCode(report, "never"), 0, "exit 0 with --fail-on never");
    t.same(all.filter((f) => f.side === "client").map((f) => f.rule.id), [], "the well-behaved client has no finding");
  });
}
