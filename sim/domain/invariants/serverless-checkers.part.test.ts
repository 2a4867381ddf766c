import t from "tap";
import { createServerlessCheckers, runCheckers } from "./serverless-checkers.ts";
import type { ServerlessCheckState } from "./serverless-check-state.ts";
import type { InspectedJob } from "../serverless/index.ts";

// Each checker must notice the violation it exists for; the property tests show the model has none.
const job = (over: Partial<InspectedJob>): InspectedJob => ({
  key: 1,
  id: "j1",
  endpointId: "ep",
  status: "IN_QUEUE",
  expired: false,
  retried: false,
  queueEntries: 1,
  workersRunningIt: 0,
  finishPending: false,
  ...over,
});
const health = { jobs: { completed: 0, failed: 0, inProgress: 0, inQueue: 1, retried: 0 }, workers: { idle: 0, running: 0, initializing: 0, ready: 0, throttled: 0, unhealthy: 0 } };
const state = (jobs: InspectedJob[], extra: Partial<ServerlessCheckState> = {}): ServerlessCheckState => ({
  serverless: { now: 0, jobs, endpoints: [{ endpointId: "ep", health, workersMin: 0, workersMax: 1, workers: 0 }] },
  ...extra,
});
const ids = (s: ServerlessCheckState) => runCheckers(createServerlessCheckers(), s).map((m) => m.split(":")[0]);

t.test("a consistent state passes every checker", async (t) => {
  t.same(ids(state([job({})], { transitions: [{ key: 1, endpointId: "ep", from: "(none)", to: "IN_QUEUE", cause: "submit", at: 0 }] })), []);
});

t.test("each violation is reported by its checker", async (t) => {
  t.same(ids(state([job({ queueEntries: 2 })])), ["serverless.job-single-state"]);
  t.same(ids(state([job({})], { transitions: [{ key: 1, endpointId: "ep", from: "(none)", to: "COMPLETED", cause: "finish", at: 0 }] })), [
    "serverless.job-transitions",
    "serverless.job-transitions",
  ]);
  const cancelled = [
    { key: 2, endpointId: "ep", from: "(none)", to: "IN_QUEUE", cause: "submit", at: 0 },
    { key: 2, endpointId: "ep", from: "IN_QUEUE", to: "CANCELLED", cause: "cancel", at: 0 },
    { key: 2, endpointId: "ep", from: "CANCELLED", to: "COMPLETED", cause: "finish", at: 1 },
  ] as const;
  t.ok(ids(state([job({})], { transitions: cancelled })).includes("serverless.cancelled-never-completes"));
  const purged = [
    { key: 3, endpointId: "ep", from: "(none)", to: "IN_QUEUE", cause: "submit", at: 0 },
    { key: 3, endpointId: "ep", from: "IN_QUEUE", to: "IN_PROGRESS", cause: "start", at: 0 },
    { key: 3, endpointId: "ep", from: "IN_PROGRESS", to: "(gone)", cause: "purge", at: 1 },
  ] as const;
  t.ok(ids(state([job({})], { transitions: purged })).includes("serverless.purge-spares-in-progress"));
  t.same(ids(state([job({ status: "COMPLETED", queueEntries: 0 })])), ["serverless.health-matches-jobs", "serverless.health-matches-jobs"]);
  t.same(ids({ quotas: [{ accountId: "a", windows: [{ window: "minute", quota: 5, remaining: -1, resetSeconds: 3, windowSeconds: 60 }] }] }), [
    "ratelimit.quota-non-negative",
  ]);
});
