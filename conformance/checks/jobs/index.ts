/**
 * The checks of the job-endpoint rules (sim/api/rules/job-rules.ts), registered on import. Every
 * check talks to `{serverless_url}/v2/<endpoint>/...` with the full-access key, on the endpoint
 * given by --endpoint, which runs the conformance handler (spec/conformance-handler.md). Rules
 * from choices.md run only under --profile strict (the framework skips them otherwise); the
 * retention and ttl rules need virtual time, so elsewhere they run only with --slow (the runsync
 * retention and status ttl also where the target's own clock runs fast enough).
 *
 * The local handler test server's rules (local-server-rules.ts) are checked in
 * conformance/local-server/ (`cpsim conform --local-server URL`).
 */
import type { CheckFn, CheckNeeds } from "../../check.ts";
import { checks, registerCheck } from "../../check-registry.ts";
import { CANCEL_RULES, cancelGroup } from "./cancel-checks.ts";
import { checkHealthCounters, checkHealthShape } from "./health-checks.ts";
import { checkHealthExact } from "./health-exact.ts";
import { withDelayFloor } from "./delay-time-floor.ts";
import { checkCompletedOutput, checkDelayTime, checkExecutionTime, checkInputEcho, checkWorkerId } from "./job-field-checks.ts";
import { checkRunPayloadLimit, checkRunsyncPayloadLimit } from "./payload-checks.ts";
import { checkPolicyExecutionTimeout, checkPolicyTtl } from "./policy-checks.ts";
import { checkPublicImageOutput, checkPublicSamePaths } from "./public-checks.ts";
import { checkPurgeCount, checkPurgeQueuedOnly } from "./purge-checks.ts";
import { checkTtlQuery, checkWaitRange } from "./query-checks.ts";
import { checkRetention, checkRetentionRun, checkRetentionRunsync, checkRetryExpired, checkStatusTtl } from "./retention-checks.ts";
import { checkRetryInQueue, checkRetryOnlyFailed, checkRetryOriginalInput, checkRetryOutputRemoved, checkRetrySameId } from "./retry-checks.ts";
import { checkRunInQueue } from "./run-checks.ts";
import { checkRunsyncCompleteResult, checkStatusSync, checkWaitElapsed, checkWaitNotRetention } from "./runsync-checks.ts";
import { checkEmptyBody, checkFailedError, checkNotFound, checkReservedEndpointIds, checkStatusValues } from "./status-checks.ts";
import { checkStreamChunkSize, checkStreamIncremental, checkStreamReassembly, checkStreamShape } from "./stream-checks.ts";
import { checkSubmitBodyRule } from "./submit-checks.ts";
import { checkTransitionLegal } from "./transition-check.ts";

const KEYS: CheckNeeds = { keys: ["api"] };
/** Minutes of the target's time: virtual on the emulator, real (with --slow) elsewhere. */
const TIMED: CheckNeeds = { keys: ["api"], controlApi: true };
/** Minutes of the target's time that a fast target clock also lets pass in seconds: the check itself says when it cannot run (support/target-clock.ts). */
const TARGET_TIMED: CheckNeeds = KEYS;

const JOB_CHECKS: readonly (readonly [string, CheckFn, CheckNeeds?])[] = [
  ["jobs.submit.input-object", checkSubmitBodyRule],
  ["jobs.submit.unknown-key", checkSubmitBodyRule],
  ["jobs.submit.field-type", checkSubmitBodyRule],
  ["jobs.submit.webhook-url", checkSubmitBodyRule],
  ["jobs.submit.policy-execution-timeout", checkSubmitBodyRule],
  ["jobs.submit.policy-ttl", checkSubmitBodyRule],
  ["jobs.payload.run-limit", checkRunPayloadLimit],
  ["jobs.payload.runsync-limit", checkRunsyncPayloadLimit],
  ["jobs.runsync.wait-range", checkWaitRange],
  ["jobs.status.ttl-query", checkTtlQuery],
  ["jobs.empty-body", checkEmptyBody],
  ["jobs.not-found", checkNotFound],
  ["jobs.reserved-endpoint-ids", checkReservedEndpointIds],
  ["jobs.run.in-queue", checkRunInQueue],
  ["jobs.runsync.complete-result", checkRunsyncCompleteResult],
  ["jobs.runsync.wait-not-retention", checkWaitNotRetention],
  ["jobs.runsync.wait-elapsed", checkWaitElapsed],
  ["jobs.status-sync", checkStatusSync],
  ["jobs.status.values", checkStatusValues],
  ["jobs.status.ttl", checkStatusTtl, TARGET_TIMED],
  ["jobs.failed-error", checkFailedError],
  ["jobs.transition-legal", checkTransitionLegal],
  ["jobs.delay-time", withDelayFloor(checkDelayTime)],
  ["jobs.execution-time", checkExecutionTime],
  ["jobs.completed-output", checkCompletedOutput],
  ["jobs.worker-id", checkWorkerId],
  ["jobs.input-echo", checkInputEcho],
  ["jobs.policy.execution-timeout", checkPolicyExecutionTimeout],
  ["jobs.policy.ttl", checkPolicyTtl, TIMED],
  ["jobs.retry.only-failed", checkRetryOnlyFailed],
  ["jobs.retry.same-id", checkRetrySameId],
  ["jobs.retry.original-input", checkRetryOriginalInput],
  ["jobs.retry.output-removed", checkRetryOutputRemoved],
  ["jobs.retry.in-queue", checkRetryInQueue],
  ["jobs.retry.expired", checkRetryExpired, TIMED],
  ["jobs.purge.queued-only", checkPurgeQueuedOnly],
  ["jobs.purge.count", checkPurgeCount],
  ["jobs.health.shape", checkHealthShape],
  ["jobs.health.counters", checkHealthCounters],
  ["jobs.health.exact", checkHealthExact],
  ["jobs.stream.chunk-size", checkStreamChunkSize],
  ["jobs.stream.reassembly", checkStreamReassembly],
  ["jobs.stream.incremental", checkStreamIncremental],
  ["jobs.stream.shape", checkStreamShape],
  ["jobs.retention", checkRetention, TIMED],
  ["jobs.retention.run", checkRetentionRun, TIMED],
  ["jobs.retention.runsync", checkRetentionRunsync, TARGET_TIMED],
  ["jobs.public.same-paths", checkPublicSamePaths],
  ["jobs.public.image-output", checkPublicImageOutput],
];

for (const [ruleId, check, needs] of JOB_CHECKS) {
  registerCheck(ruleId, check, { needs: needs ?? KEYS });
  // The cancel rules share one observation (cancel-checks.ts), where they stood in the catalog's order.
  if (ruleId === "jobs.policy.ttl") checks.registerGroup(cancelGroup, CANCEL_RULES, { needs: KEYS });
}
