/**
 * Runs the lifecycle model for one rule: reads the target's catalog, then lets fast-check draw
 * sequences of pod operations (`fc.commands` + `fc.asyncModelRun`) with the rule's checker run
 * after every step. A violation shrinks to a minimal sequence and is reported with every request
 * of that sequence and the pod ids they pass on, so its curl script replays it on a fresh target.
 * A rule whose situation never arose (no pod reached RUNNING, none was stopped ...) is skipped
 * with the reason, never passed.
 */
import fc from "fast-check";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { missingFact } from "../../target-facts/index.ts";
import { advance } from "../support/time.ts";
import { lifecycleRunArb } from "./lifecycle-commands.ts";
import { scaledRuns } from "./lifecycle-property.ts";
import type { InvariantChecker } from "./lifecycle-observation.ts";
import { LifecycleSession, LifecycleViolation, REAL_WAIT_CAP_MS, type LifecycleEnv } from "./lifecycle-session.ts";
import { readTargetCatalog } from "./lifecycle-target.ts";

/** Runs per rule (at the default --runs) and commands per run: each command costs two or three requests. */
export const MODEL_RUNS = 6;
export const MODEL_MAX_COMMANDS = 12;
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

export async function runLifecycleModel(ctx: CheckContext, checker: InvariantChecker): Promise<CheckOutcome> {
  const target = await readTargetCatalog(ctx);
  const { catalog } = target;
  if (catalog.gpuTypes.length === 0 && catalog.cpuFlavors.length === 0) {
    return ctx.skip(`no pod could be created: ${target.notes.join("; ") || "the target lists no GPU type or CPU flavor"}`);
  }
  const env: LifecycleEnv = { ctx, target, checker, support: { action: true, delete: true, patch: true, list: true }, applicable: 0 };
  // A target error (or a bug of the check) is no verdict: it stops the runs and is rethrown as it is.
  let fatal: unknown;
  const runs = lifecycleRunArb({
    catalog,
    maxAdvanceMs: ctx.controlApi ? MAX_VIRTUAL_STEP_MS : REAL_WAIT_CAP_MS,
    maxCommands: MODEL_MAX_COMMANDS,
    ...(checker.focus ? { focus: checker.focus } : {}),
    ...(checker.globalPods ? { globalPods: true } : {}),
  });
  const property = fc.asyncProperty(runs, async ({ first, commands }) => {
    if (fatal !== undefined) return;
    const session = new LifecycleSession(env);
    try {
      await fc.asyncModelRun(() => ({ model: session, real: session }), first ? [first, ...commands] : commands);
    } catch (err) {
      if (err instanceof LifecycleViolation) throw err;
      fatal = err;
    } finally {
      try {
        await session.cleanup();
      } catch (err) {
        fatal ??= err;
      }
    }
  });
  const details = await fc.check(property, { ...ctx.fc, numRuns: scaledRuns(ctx, MODEL_RUNS) });
  await settle(ctx);
  if (fatal !== undefined) throw fatal;
  if (details.failed) {
    const err = details.errorInstance;
    if (!(err instanceof LifecycleViolation)) throw err;
    const example = (details.counterexample as [{ first: unknown; commands: unknown }] | null)?.[0];
    const steps = (c: unknown) => (c === undefined ? "" : String(c).replace(/\s*\/\*replayPath=.*?\*\//g, "").trim());
    const sequence = example ? [steps(example.first), steps(example.commands)].filter((c) => c !== "").join(",") : "";
    ctx.log(`minimal sequence: ${sequence}`);
    return ctx.fail({
      ...err.failure,
      expected: `${err.failure.expected} (minimal sequence of pod operations: ${sequence})`,
      ...(details.counterexamplePath ? { path: details.counterexamplePath } : {}),
    });
  }
  if (env.applicable === 0) {
    const notes = [...target.notes];
    const { support } = env;
    if (!support.action) notes.push(missingFact("podActionPath", `POST ${ctx.facts.podActionPath.value} (${ctx.facts.podActionPath.source}) answered as a missing route`));
    if (!support.delete) notes.push(missingFact("podDeletePath", `${ctx.facts.podDeletePath.value === null ? "the target has none" : `DELETE ${ctx.facts.podDeletePath.value} answered as a missing route`}`));
    if (!support.patch) notes.push("the target has no PATCH /v2/pods/{id} (choices.md)");
    return ctx.skip(`${checker.notApplicable}${notes.length ? ` (${notes.join("; ")})` : ""}`);
  }
  return ctx.pass();
}
