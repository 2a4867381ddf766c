/**
 * The pod lifecycle model, one run for every pod invariant: reads the target's catalog, then lets
 * fast-check draw sequences of pod operations (`fc.commands` + `fc.asyncModelRun`) with EVERY
 * rule's checker run after every step (one model, many checkers: TigerBeetle's way), each
 * violation attributed to its own rule. Once a rule breaks, fast-check shrinks the sequence for
 * that rule alone (the session's `focus`); a violation of another rule met meanwhile is reported
 * for that rule as it was found. A rule whose situation never arose (no pod reached RUNNING,
 * none was stopped ...) is skipped with the reason, never passed.
 *
 * Runs are sized for the target: against the emulator's control API many short runs (time steps
 * are free); against a real-time target fewer and longer ones, since each run first waits for
 * its pods to start and every time step costs real seconds.
 */
import fc from "fast-check";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { inexpressibleActions, missingFact } from "../../target-facts/index.ts";
import { advance } from "../support/time.ts";
import { exitedFirstRunArb, globalFirstRunArb, guarded, lifecycleRunArb, runningFirstRunArb, volumeFirstRunArb, type LifecycleRun } from "./lifecycle-commands.ts";
import { scaledRuns } from "./lifecycle-property.ts";
import type { CommandKind, InvariantChecker } from "./lifecycle-observation.ts";
import { LifecycleSession, LifecycleViolation, REAL_WAIT_CAP_MS, type LifecycleEnv, type RuleChecker } from "./lifecycle-session.ts";
import { readTargetCatalog } from "./lifecycle-target.ts";
import { throwIfOnlyInterrupted } from "../support/interrupted.ts";
import { realtimeBounds } from "../../check-context.ts";
import { SETUP_NOT_REACHED } from "../../../reports/conformance-report.ts";
import { describeWait } from "../support/poll.ts";
import { interruptAfterWorkingTime, workingNow } from "../../working-time.ts";

/** Runs of the shared model at the embedded default --runs, and commands per run, by kind of target. */
export const MODEL_RUNS = 40;
export const MODEL_MAX_COMMANDS = 12;
export const REALTIME_MAX_COMMANDS = 24;
/** Runs at most whose first pod mounts a network volume (or asks for global networking), when the draws left such pods unseen. */
const FOCUSED_RUNS = 3;
/** The longest virtual time step (the control API); the spec names no timing, so steps vary widely. */
const MAX_VIRTUAL_STEP_MS = 120_000;
/**
 * After a check, on the emulator (control API), time moves on by this much so that pods it
 * terminated are dropped and do not count against the account's pod limit in later checks.
 */
const SETTLE_MS = 15 * 60_000;

export async function settle(ctx: CheckContext): Promise<void> {
  if (ctx.controlApi) await advance(ctx, SETTLE_MS);
}

/** The commands' weights: for each kind, the largest any member rule asks for. */
function mergedFocus(checkers: readonly InvariantChecker[]): Partial<Record<CommandKind, number>> {
  const out: Partial<Record<CommandKind, number>> = {};
  for (const c of checkers) for (const [k, w] of Object.entries(c.focus ?? {}) as [CommandKind, number][]) out[k] = Math.max(out[k] ?? 0, w);
  return out;
}

export interface ModelMember {
  readonly checker: InvariantChecker;
  /** The rule's own context: its verdict and failures are made with it. */
  readonly ctx: CheckContext;
}

/** Judges every member rule (rule id → checker and context) with one model run; the first member's context makes the requests. */
export async function runLifecycleModel(members: ReadonlyMap<string, ModelMember>): Promise<Map<string, CheckOutcome>> {
  const outcomes = new Map<string, CheckOutcome>();
  const ctx = [...members.values()][0]!.ctx;
  const checkers = new Map([...members].map(([id, m]) => [id, m.checker]));
  const contextOf = (id: string): CheckContext => members.get(id)!.ctx;
  const target = await readTargetCatalog(ctx);
  const { catalog } = target;
  if (catalog.gpuTypes.length === 0 && catalog.cpuFlavors.length === 0) {
    const why = `no pod could be created: ${target.notes.join("; ") || "the target lists no GPU type or CPU flavor"}`;
    for (const id of checkers.keys()) outcomes.set(id, contextOf(id).skip(why));
    return outcomes;
  }
  const rules: RuleChecker[] = [...checkers].map(([ruleId, checker]) => ({ ruleId, checker, applicable: 0 }));
  // The first property's bound, as ctx.fc's time limit sets it (check-context.ts).
  // The run's bounds, times the factor measured on the target (check-context.ts, target-timing.ts).
  const bounds = realtimeBounds(ctx.options);
  // In working time: the requests' waits for rate-limit quota do not count (working-time.ts).
  const working = workingNow(ctx.client);
  const runUntil = ctx.controlApi ? Number.POSITIVE_INFINITY : working() + bounds.propertyMs;
  const env: LifecycleEnv = { ctx, target, checkers: rules, support: { action: true, unservedActions: new Set(inexpressibleActions(ctx.facts)), delete: true, patch: true, list: true }, seenStatuses: new Set(), runUntil };
  // A target error (or a bug of the check) is no verdict: it stops the runs and is rethrown as it is.
  let fatal: unknown;
  const all = [...checkers.values()];
  const options = {
    catalog,
    maxAdvanceMs: ctx.controlApi ? MAX_VIRTUAL_STEP_MS : REAL_WAIT_CAP_MS,
    maxCommands: ctx.controlApi ? MODEL_MAX_COMMANDS : REALTIME_MAX_COMMANDS,
    focus: mergedFocus(all),
    ...(all.some((c) => c.globalPods) ? { globalPods: "sometimes" as const } : {}),
  };
  const runs = lifecycleRunArb(options);
  // A run found a violation: from then on every run is a shrink step, and runs in full.
  let violated = false;
  /** The property; `done` says when a fresh run has nothing left to judge (it then returns at once). */
  const property = (arb: fc.Arbitrary<LifecycleRun>, done: () => boolean = () => false) => fc.asyncProperty(arb, async ({ first, commands }) => {
    if (fatal !== undefined || (!violated && done())) return;
    const session = new LifecycleSession(env);
    try {
      await fc.asyncModelRun(() => ({ model: session, real: session }), [...(first ? [first] : []), ...commands].map(guarded));
    } catch (err) {
      if (err instanceof LifecycleViolation) {
        violated = true;
        throw err;
      }
      fatal = err;
    } finally {
      try {
        await session.cleanup();
      } catch (err) {
        fatal ??= err;
      }
    }
  });
  let details = await fc.check(property(runs), { ...ctx.fc, numRuns: scaledRuns(ctx, MODEL_RUNS) });
  // A rule about pods on a network volume, or about globally networked pods, left unjudged by the
  // draws (a pod mounts a volume in about one create of four, and global networking needs an
  // NVIDIA GPU in a data center that offers it; a real-time target leaves time for few runs): up
  // to three more runs each, each first creating such a pod (a target may have no capacity for
  // one body), until one is placed; seeded as the rule is, so a replay draws them again. The
  // first check's runs are as they were; these shrink as they do.
  // A pod's start may outlast the usual bound against a real-time target: that run gets longer.
  const focused = [
    { arb: volumeFirstRunArb(options), flag: "volumePods", what: "mounts a network volume", realtimeMs: bounds.propertyMs },
    { arb: globalFirstRunArb(options), flag: "globalPods", what: "asks for global networking", realtimeMs: bounds.propertyMs },
    { arb: runningFirstRunArb(options), flag: "runningPods", what: "is read until RUNNING", realtimeMs: bounds.runningPropertyMs },
    { arb: exitedFirstRunArb(options), flag: "exitedPods", what: "is stopped and read until EXITED", realtimeMs: bounds.runningPropertyMs },
  ] as const;
  // The focused runs that ran to their end (not cut by the deadline): a rule they were for that is
  // still unjudged is a set-up that did not come about, counted apart (SETUP_NOT_REACHED).
  const tried = new Map<string, string>();
  for (const { arb, flag, what, realtimeMs } of focused) {
    // A rule on EXITED pods is unjudged until an EXITED record was seen, whatever else applied.
    const unseen = (rc: RuleChecker) => rc.applicable === 0 || (flag === "exitedPods" && !env.seenStatuses.has("EXITED"));
    const unjudged = () => rules.some((rc) => rc.checker[flag] === true && unseen(rc) && rc.violation === undefined);
    if (arb === undefined || fatal !== undefined || details.failed || !unjudged() || Date.now() >= ctx.deadline) continue;
    ctx.log(`the pod lifecycle: runs whose first pod ${what}`);
    const limit = ctx.controlApi ? bounds.virtualPropertyMs : realtimeMs;
    env.runUntil = working() + limit;
    const extra = await fc.check(property(arb, () => !unjudged()), { seed: ctx.seed, numRuns: FOCUSED_RUNS, plugins: [interruptAfterWorkingTime(limit, working, ctx.deadline)] });
    // Cut short by its bound before the run ended: what it observed counts, it gives no verdict.
    if (!(extra.failed && extra.interrupted && !(extra.errorInstance instanceof LifecycleViolation))) details = extra;
    if (!extra.interrupted) tried.set(flag, what);
  }
  await settle(ctx);
  if (fatal !== undefined) throw fatal;
  throwIfOnlyInterrupted(details, details.errorInstance instanceof LifecycleViolation);
  if (details.failed) {
    const err = details.errorInstance;
    if (!(err instanceof LifecycleViolation)) throw err;
    const example = (details.counterexample as [{ first: unknown; commands: unknown }] | null)?.[0];
    const steps = (c: unknown) => (c === undefined ? "" : String(c).replace(/\s*\/\*replayPath=.*?\*\//g, "").trim());
    const sequence = example ? [steps(example.first), steps(example.commands)].filter((c) => c !== "").join(",") : "";
    ctx.log(`${err.ruleId}: minimal sequence: ${sequence}`);
    outcomes.set(
      err.ruleId,
      contextOf(err.ruleId).fail({
        ...err.failure,
        expected: `${err.failure.expected} (minimal sequence of pod operations: ${sequence})`,
        ...(details.counterexamplePath ? { path: details.counterexamplePath } : {}),
      }),
    );
  }
  for (const rc of rules) {
    if (outcomes.has(rc.ruleId)) continue;
    if (rc.violation) {
      outcomes.set(rc.ruleId, contextOf(rc.ruleId).fail(rc.violation));
      continue;
    }
    if (rc.applicable === 0) {
      const notes = [...target.notes];
      const { support } = env;
      if (!support.action) notes.push(missingFact("podActionPath", `${ctx.facts.podActionPath.value} (${ctx.facts.podActionPath.source}) answered as a missing route`));
      else if (support.unservedActions.size > 0) notes.push(`the target serves no ${[...support.unservedActions].sort().join(", ")} action on ${ctx.facts.podActionPath.value}`);
      if (!support.delete) notes.push(missingFact("podDeletePath", `${ctx.facts.podDeletePath.value === null ? "the target has none" : `DELETE ${ctx.facts.podDeletePath.value} answered as a missing route`}`));
      if (!support.patch) notes.push("the target has no PATCH /v2/pods/{id} (docs/choices.md)");
      // A pod the runs tried to bring RUNNING or EXITED, on a target serving what that takes, that never got there.
      const focus = notes.length === 0 ? (["runningPods", "exitedPods"] as const).find((f) => rc.checker[f] === true && tried.has(f)) : undefined;
      const wait = ctx.controlApi ? "" : `, each read for up to ${describeWait(bounds.runningWaitMs, false)}`;
      const reason = focus
        ? `${SETUP_NOT_REACHED} in ${FOCUSED_RUNS} runs whose first pod ${tried.get(focus)!}${wait}: ${rc.checker.notApplicable}`
        : `${rc.checker.notApplicable}${notes.length ? ` (${notes.join("; ")})` : ""}`;
      outcomes.set(rc.ruleId, contextOf(rc.ruleId).skip(reason));
      continue;
    }
    outcomes.set(rc.ruleId, contextOf(rc.ruleId).pass());
  }
  return outcomes;
}
