/**
 * Durations judged in the target's time (support/target-clock.ts): against the emulator on a
 * real clock running 15 × the wall clock (what `cpsim serve --clock real --speed 15 --no-control`
 * serves) the duration rules pass, and the same target reporting an executionTime longer than any
 * time that passed on its own clock, or dropping a runsync result before its minute, still fails.
 * On a wall-speed clock the rate reads as 1.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t, { type Test } from "tap";
import type { ApiRequest, ApiResponse } from "../../../sim/api/types.ts";
import { PlatformBackend } from "../../../sim/http/platform-backend.ts";
import { startEmulator } from "../../../sim/http/index.ts";
import { conform } from "../../conform.ts";
import { embeddedCatalog, embeddedKeys } from "../../embedded.ts";
import { breakBackend, mapAnswer, type Breakage } from "../../test-support/jobs/test-target.ts";
import { clockOf } from "./support/target-clock.ts";
import "./index.ts";

const DURATION_RULES = ["jobs.execution-time", "jobs.delay-time", "jobs.runsync.wait-not-retention", "jobs.runsync.complete-result", "jobs.status.ttl"];

/** The emulator on a real clock at `speed` × wall time without the control API, broken by `breakage`. */
async function realClockTarget(speed: number, breakage?: Breakage) {
  const catalog = embeddedCatalog();
  const emulator = await startEmulator({
    host: "127.0.0.1",
    port: 0,
    seed: 1,
    clock: "real",
    speed,
    control: false,
    createBackend: (o) => {
      const inner = new PlatformBackend({ ...o, catalog });
      return breakage ? breakBackend(inner, breakage) : inner;
    },
  });
  const keys = embeddedKeys(catalog);
  const run = (only: readonly string[], profile: "lenient" | "strict" = "lenient") =>
    conform({
      profile,
      target: emulator.baseUrl,
      serverlessUrl: emulator.serverlessUrl,
      apiKey: keys.api,
      seed: 1,
      runs: 2,
      only: [...only],
      minCoverage: 0,
      quiet: true,
      reportDir: mkdtempSync(join(tmpdir(), "cpsim-jobs-clock-")),
    });
  return { run, stop: () => emulator.close() };
}

const idOf = (r: ApiResponse): string | undefined => {
  const id = (r.body as Record<string, unknown> | undefined)?.["id"];
  return typeof id === "string" ? id : undefined;
};

/** The answers of runsync and status changed by `change`, given the operation and the job id read (status). */
const jobAnswers =
  (change: (op: string, readId: string | undefined, r: ApiResponse, req: ApiRequest) => ApiResponse): Breakage =>
  (req, next) => {
    const out = next(req);
    const m = /^\/v2\/[^/]+\/(status|runsync)(?:\/([^/]+))?$/.exec(req.path);
    return m ? mapAnswer(out, (r) => change(m[1]!, m[2], r, req)) : out;
  };

/** Every executionTime the target reports, `ms` longer than it was. */
const executionTimePlus = (ms: number): Breakage =>
  jobAnswers((_op, _id, r) => {
    const b = (r.body ?? {}) as Record<string, unknown>;
    return typeof b["executionTime"] === "number" ? { ...r, body: { ...b, executionTime: b["executionTime"] + ms } } : r;
  });

/** jobs.execution-time's result against a real clock at `speed`, broken by `breakage`. */
async function executionTimeRule(t: Test, speed: number, breakage: Breakage) {
  const target = await realClockTarget(speed, breakage);
  t.teardown(() => target.stop());
  const { report } = await target.run(["jobs.execution-time"]);
  return report.rules.find((x) => x.id === "jobs.execution-time");
}

t.test("clockOf: the wall clock is read as it is; a fast clock scales, with room for undershoot", async (t) => {
  const wall = clockOf(1.2);
  t.equal(wall.rate, 1, "below 1.5 is the wall clock");
  t.equal(wall.atMost(2_500), 2_500);
  t.equal(wall.wallFor(22_000), 22_000);
  t.equal(wall.note, "");
  const fast = clockOf(15);
  t.equal(fast.atMost(1_000), 18_750);
  t.equal(fast.wallFor(22_500), 1_500);
  t.match(fast.note, /15\.0 × the suite's/);
});

t.test("a target whose clock runs 15 × the suite's passes the duration rules, ttl included", async (t) => {
  const target = await realClockTarget(15);
  t.teardown(() => target.stop());
  const { report } = await target.run(DURATION_RULES);
  for (const id of DURATION_RULES) {
    const r = report.rules.find((x) => x.id === id);
    t.equal(r?.status, "pass", id, { failure: r?.failures[0]?.evidence.expected, reason: r?.reason });
  }
});

t.test("on that clock, an executionTime longer than any time that passed still fails", async (t) => {
  const r = await executionTimeRule(t, 15, executionTimePlus(600_000));
  t.equal(r?.status, "fail");
  t.match(r?.failures[0]?.evidence.expected ?? "", /executionTime at most .* the target's time: its clock runs about \d+\.\d × the suite's/);
});

t.test("on that clock, a runsync result dropped as soon as the wait is over still fails", async (t) => {
  // Results of a runsync with a wait are read as gone once the target's clock has passed the wait.
  const until = new Map<string, number>();
  const target = await realClockTarget(
    15,
    jobAnswers((op, readId, r, req) => {
      const id = idOf(r);
      if (op === "runsync" && id !== undefined && req.query["wait"] !== undefined) until.set(id, Date.now() + Number(req.query["wait"]) / 15);
      const expired = readId !== undefined && Date.now() > (until.get(readId) ?? Infinity);
      return expired ? { status: 404, headers: { "content-type": "application/json" }, body: { error: "expired" } } : r;
    }),
  );
  t.teardown(() => target.stop());
  const { report } = await target.run(["jobs.runsync.wait-not-retention"]);
  const r = report.rules.find((x) => x.id === "jobs.runsync.wait-not-retention");
  t.equal(r?.status, "fail", "", { reason: r?.reason });
});

t.test("on that clock, a runsync result kept past its minute fails the strict retention rule", async (t) => {
  // Every runsync answer is kept here and served again once the real backend has let it expire.
  const kept = new Map<string, unknown>();
  const target = await realClockTarget(
    15,
    jobAnswers((op, readId, r) => {
      const id = idOf(r);
      if (op === "runsync" && id !== undefined) kept.set(id, r.body);
      const old = readId !== undefined ? kept.get(readId) : undefined;
      return r.status === 404 && old !== undefined ? { status: 200, headers: { "content-type": "application/json" }, body: old } : r;
    }),
  );
  t.teardown(() => target.stop());
  const { report } = await target.run(["jobs.retention.runsync"], "strict");
  const r = report.rules.find((x) => x.id === "jobs.retention.runsync");
  t.equal(r?.status, "fail", "", { reason: r?.reason });
  t.match(r?.failures[0]?.evidence.expected ?? "", /gone 61 s after it completed/);
});

t.test("on a wall-speed clock the rate reads as 1: an executionTime three seconds too long fails", async (t) => {
  const target = await realClockTarget(1, executionTimePlus(3_000));
  t.teardown(() => target.stop());
  const { report } = await target.run(["jobs.execution-time", "jobs.retention.runsync"]);
  const r = report.rules.find((x) => x.id === "jobs.execution-time");
  const retention = report.rules.find((x) => x.id === "jobs.retention.runsync");
  t.match(retention?.reason ?? "", /needs 301 s of the target's time to pass.*this target's runs at the wall clock's pace\); against this target it runs only with --slow/, "the five minutes of the runsync retention cannot pass");
  t.equal(r?.status, "fail");
  t.notMatch(r?.failures[0]?.evidence.expected ?? "", /target's time/, "judged on the wall clock");
});
