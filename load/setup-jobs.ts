/** The jobs a scenario's requests use (`{ids:NAME}`), submitted before the run. */
import { LoadSetupError, scenarioKey } from "./prepare-requests.ts";
import type { Scenario } from "./scenario.ts";
import type { LoadTarget } from "./target.ts";
import { call, FINAL_JOB_STATUSES, inBatches, jobUrl } from "./target-calls.ts";

/** Longest a setup or verification step may take. */
export const SETUP_TIMEOUT_MS = 60_000;

/** Submits `count` jobs; returns their ids. */
export async function submitJobs(target: LoadTarget, key: string, input: unknown, count: number): Promise<string[]> {
  const ids = await inBatches(Array.from({ length: count }, (_, i) => i), 16, async () => {
    const r = await call("POST", jobUrl(target, "run"), key, { input });
    const id = (r.json as { id?: unknown } | undefined)?.id;
    if (r.status !== 200 || typeof id !== "string") throw new LoadSetupError(`setup: POST ${jobUrl(target, "run")} answered ${r.status} without a job id; is --endpoint ${target.endpoint} running the conformance handler?`);
    return id;
  });
  return ids;
}

/** Waits until every job is in a final status, polling; gives up after SETUP_TIMEOUT_MS. */
export async function waitForJobs(target: LoadTarget, key: string, ids: readonly string[], deadline = Date.now() + SETUP_TIMEOUT_MS): Promise<void> {
  let waiting = [...ids];
  while (waiting.length > 0) {
    if (Date.now() > deadline) throw new LoadSetupError(`setup: ${waiting.length} job(s) did not finish within ${SETUP_TIMEOUT_MS / 1000} s (is the target's clock running? the embedded emulator runs with --clock real)`);
    const states = await inBatches(waiting, 16, async (id) => (await call("GET", jobUrl(target, "status", id), key)).json as { status?: string } | undefined);
    waiting = waiting.filter((_, i) => !FINAL_JOB_STATUSES.has(String(states[i]?.status)));
    if (waiting.length > 0) await new Promise((r) => setTimeout(r, 200));
  }
}

/** Runs the setup steps; returns the ids by step name. */
export async function runSetup(scenario: Scenario, target: LoadTarget): Promise<Map<string, string[]>> {
  const ids = new Map<string, string[]>();
  const key = scenarioKey(scenario, target);
  for (const step of scenario.setup ?? []) {
    const made = await submitJobs(target, key, step.input, step.count);
    if (step.waitForCompletion) await waitForJobs(target, key, made);
    ids.set(step.name, made);
  }
  return ids;
}
