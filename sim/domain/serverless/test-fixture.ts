/**
 * A small platform for the serverless tests: two accounts, a private QueueDelay endpoint, a
 * private RequestCount endpoint on 2-GPU workers, and a shared endpoint, over a TestPool, with
 * short retention so that expiry happens within a test. Every transition is recorded.
 */
import { Engine } from "../../core/index.ts";
import type { JobTransition } from "./job-status.ts";
import { Serverless } from "./serverless.ts";
import type { ServerlessEndpointConfig } from "./endpoint-state.ts";
import { TestPool } from "./test-pool.ts";
import type { ServerlessOptions } from "./types.ts";

export const ACCOUNTS = [{ id: "acct-1" }, { id: "acct-2" }];

const base = {
  handler: "conformance",
  gpuCount: 1,
  idleTimeoutMs: 2000,
  executionTimeoutMs: 600_000,
  coldStartMs: { mean: 500, cv: 0.5 },
  slug: null,
} as const;

export const ENDPOINTS: ServerlessEndpointConfig[] = [
  { ...base, id: "ep-queue", accountId: "acct-1", gpuTypeIds: ["A", "B"], workersMin: 0, workersMax: 3, scalerType: "QueueDelay", scalerValue: 1 },
  { ...base, id: "ep-count", accountId: "acct-2", gpuTypeIds: ["B"], gpuCount: 2, workersMin: 1, workersMax: 4, scalerType: "RequestCount", scalerValue: 2 },
  { ...base, id: "ep-shared", accountId: null, gpuTypeIds: ["A"], workersMin: 0, workersMax: 2, scalerType: "RequestCount", scalerValue: 1, slug: "shared-model" },
];

export const SHORT_RETENTION: ServerlessOptions = {
  runRetentionMs: 5000,
  syncRetentionMs: 1000,
  defaultTtlMs: 60_000,
  sweepIntervalMs: 500,
};

export interface Fixture {
  engine: Engine;
  pool: TestPool;
  model: Serverless;
  transitions: JobTransition[];
}

export function makeFixture(
  seed: string | number = 1,
  options: ServerlessOptions = SHORT_RETENTION,
  endpoints: ServerlessEndpointConfig[] = ENDPOINTS,
  gpus: Record<string, number> = { A: 2, B: 4 },
): Fixture {
  const engine = new Engine({ seed });
  const pool = new TestPool(gpus);
  const transitions: JobTransition[] = [];
  const model = new Serverless(engine, { accounts: ACCOUNTS, endpoints }, engine.rng.fork("serverless"), pool, {
    ...options,
    onTransition: (t) => transitions.push(t),
  });
  return { engine, pool, model, transitions };
}
