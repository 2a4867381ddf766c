/**
 * Issue 32: the jobs lane is as wide as the endpoint's workers allow. Against the emulator on the
 * wall clock whose conformance endpoint keeps three workers up, the run's first read of health
 * reports them, the lane runs six job rules at a time, and the schedule in report.json says why;
 * an endpoint scaled to zero gets the floor. The workers start cold, each after its own drawn
 * start-up time, so the run begins once health reports them all up (on CI's machine, faster than
 * a busy one, the first read came while two were still initializing, and the lane was four wide).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { startEmulator } from "../sim/http/index.ts";
import { PlatformBackend } from "../sim/http/platform-backend.ts";
import { conform } from "./conform.ts";
import { embeddedCatalog, embeddedKeys } from "./embedded.ts";
import { JOB_LANE_WIDTH } from "./schedule.ts";
import "./checks/jobs/index.ts";

/** Reads health until idle + running reaches `want`: at most 1,200 reads, 50 ms apart; the last counts if never. */
async function waitForWorkers(serverlessUrl: string, apiKey: string | undefined, want: number): Promise<void> {
  for (let i = 0; i < 1_200; i++) {
    const res = await fetch(`${serverlessUrl}/v2/conformance/health`, { headers: { authorization: `Bearer ${apiKey ?? ""}` } });
    const body = (await res.json()) as { workers?: { idle?: number; running?: number } };
    if ((body.workers?.idle ?? 0) + (body.workers?.running ?? 0) >= want) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function scheduleWith(workersMin: number, workersMax: number): Promise<readonly string[]> {
  const base = embeddedCatalog();
  const catalog = { ...base, endpoints: base.endpoints.map((e) => (e.id === "conformance" ? { ...e, workersMin, workersMax } : e)) };
  const emulator = await startEmulator({ host: "127.0.0.1", port: 0, seed: 1, clock: "real", speed: 15, control: false, createBackend: (o) => new PlatformBackend({ ...o, catalog }) });
  try {
    await waitForWorkers(emulator.serverlessUrl, embeddedKeys(catalog).api, workersMin);
    const { report } = await conform({
      target: emulator.baseUrl,
      serverlessUrl: emulator.serverlessUrl,
      apiKey: embeddedKeys(catalog).api,
      seed: 1,
      only: ["jobs.not-found", "jobs.status.values"],
      minCoverage: 0,
      quiet: true,
      reportDir: mkdtempSync(join(tmpdir(), "cpsim-lane-width-")),
    });
    return report.schedule ?? [];
  } finally {
    await emulator.close();
  }
}

t.test("three workers up: six job rules at a time, and the schedule says why", async (t) => {
  const schedule = await scheduleWith(3, 3);
  t.match(schedule.join("\n"), /side by side: jobs: 2 rules, 6 at a time \(health reported 3 workers \(idle \d, running \d\): 2 a worker, within 4–8\)/);
});

t.test("an endpoint scaled to zero: the floor, saying so", async (t) => {
  const schedule = await scheduleWith(0, 2);
  t.match(schedule.join("\n"), new RegExp(`side by side: jobs: 2 rules, ${JOB_LANE_WIDTH} at a time \\(health reported 0 workers \\(idle 0, running 0\\)`));
});
