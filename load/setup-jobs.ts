/**
 * The jobs a scenario's requests use (`{ids:NAME}`), submitted before the run through the run's
 * paced client (target-calls.ts): a spent window or a 429 is waited out as the target says. A
 * refusal is diagnosed by what it is: the quota (exit 2, naming it and how to pace), a missing
 * endpoint or route (404), a refused key (401/403), or an endpoint that is not running the
 * conformance handler.
 */
import { LoadSetupError, scenarioKey } from "./prepare-requests.ts";
import { describeQuota, type Quota } from "./quota.ts";
import type { Scenario } from "./scenario.ts";
import type { LoadTarget } from "./target.ts";
import { call, FINAL_JOB_STATUSES, inBatches, isRateLimitStop, jobUrl } from "./target-calls.ts";

/** Longest a setup or verification step may take. */
export const SETUP_TIMEOUT_MS = 60_000;

/** How to pace a run that the quota stopped. */
export const PACE_HINT = "pace the run with --respect-rate-limit (every step, setup included, fits the quota), or lower --rate and --connections, or use a key with a larger quota";

/** The exit-2 error for a setup step the target's rate limit stopped. */
export function rateLimitStop(what: string, detail: string, quota: Quota | undefined): LoadSetupError {
  return new LoadSetupError(`${what}: stopped by the target's rate limit (${detail}); the key's quota: ${describeQuota(quota)}. ${PACE_HINT[0].toUpperCase()}${PACE_HINT.slice(1)}`);
}

function refusal(what: string, url: string, status: number, target: LoadTarget, quota: Quota | undefined): LoadSetupError {
  if (status === 429) return rateLimitStop(what, `POST ${url} still answered 429 after waiting as Retry-After said`, quota);
  if (status === 404) return new LoadSetupError(`${what}: POST ${url} answered 404: the target has no job endpoint "${target.endpoint}" there; give --endpoint ID (an endpoint running the conformance handler) or --serverless-url`);
  if (status === 401 || status === 403) return new LoadSetupError(`${what}: POST ${url} answered ${status}: the target refused the key; check --api-key`);
  return new LoadSetupError(`${what}: POST ${url} answered ${status} without a job id; is --endpoint ${target.endpoint} running the conformance handler?`);
}

/** Submits `count` jobs; returns their ids. `what` names the step in errors. */
export async function submitJobs(target: LoadTarget, key: string, input: unknown, count: number, what = "setup", quota?: Quota): Promise<string[]> {
  const url = jobUrl(target, "run");
  try {
    return await inBatches(Array.from({ length: count }, (_, i) => i), 16, async () => {
      const r = await call(target, "POST", url, key, { input });
      const id = (r.json as { id?: unknown } | undefined)?.id;
      if (r.status < 200 || r.status >= 300 || typeof id !== "string") throw refusal(what, url, r.status, target, quota);
      return id;
    });
  } catch (err) {
    if (isRateLimitStop(err)) throw rateLimitStop(what, err.message, quota);
    throw err;
  }
}

/** Waits until every job is in a final status, polling; gives up after SETUP_TIMEOUT_MS. */
export async function waitForJobs(target: LoadTarget, key: string, ids: readonly string[], deadline = Date.now() + SETUP_TIMEOUT_MS, what = "setup", quota?: Quota): Promise<void> {
  let waiting = [...ids];
  try {
    while (waiting.length > 0) {
      if (Date.now() > deadline) throw new LoadSetupError(`${what}: ${waiting.length} job(s) did not finish within ${SETUP_TIMEOUT_MS / 1000} s (is the target's clock running? the embedded emulator runs with --clock real)`);
      const states = await inBatches(waiting, 16, async (id) => (await call(target, "GET", jobUrl(target, "status", id), key)).json as { status?: string } | undefined);
      waiting = waiting.filter((_, i) => !FINAL_JOB_STATUSES.has(String(states[i]?.status)));
      if (waiting.length > 0) await new Promise((r) => setTimeout(r, 200));
    }
  } catch (err) {
    if (isRateLimitStop(err)) throw rateLimitStop(what, err.message, quota);
    throw err;
  }
}

/** Runs the setup steps; returns the ids by step name. */
export async function runSetup(scenario: Scenario, target: LoadTarget, quota?: Quota): Promise<Map<string, string[]>> {
  const ids = new Map<string, string[]>();
  const key = scenarioKey(scenario, target);
  for (const step of scenario.setup ?? []) {
    const what = `setup of ${scenario.name} (${step.count} job(s) "${step.name}")`;
    const made = await submitJobs(target, key, step.input, step.count, what, quota);
    if (step.waitForCompletion) await waitForJobs(target, key, made, undefined, what, quota);
    ids.set(step.name, made);
  }
  return ids;
}
