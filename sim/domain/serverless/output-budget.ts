/**
 * The memory budget: an output above maxOutputBytes, or one that would take the retained inputs
 * and outputs past resultsBudgetBytes, turns the job's plan into a failure saying so (same
 * duration), and an input that would not fit is refused at submission, so no key can hold more
 * memory than the budget however many jobs it submits. Values below BUDGET_MIN_BYTES are not
 * tracked: job limits bound their number.
 */
import type { HandlerPlan } from "../handlers/index.ts";
import { outputTooLarge, resultsBudgetFull } from "../handlers/output-limit.ts";
import { jsonSizeAtMost } from "./json-size.ts";
import type { ModelCore } from "./model-core.ts";

/** Outputs below this size are not tracked by the results budget: job limits bound their number. */
export const BUDGET_MIN_BYTES = 4096;

export class OutputBudget {
  /** Sizes of the outputs of BUDGET_MIN_BYTES and more held now, by slot. */
  readonly bigResults = new Map<number, number>();
  /** Sizes of the inputs of BUDGET_MIN_BYTES and more held now, by slot (same budget). */
  readonly bigInputs = new Map<number, number>();
  private retainedBytes = 0;
  private readonly maxOutputBytes: number;
  private readonly resultsBudgetBytes: number;

  constructor(m: ModelCore) {
    this.maxOutputBytes = m.maxOutputBytes;
    this.resultsBudgetBytes = m.resultsBudgetBytes;
  }

  /**
   * The size of a job input counted against the budget (0 below BUDGET_MIN_BYTES), or why it
   * does not fit. Inputs are held as long as their job, so they count like outputs.
   */
  inputSize(input: unknown): number | { refusal: string } {
    const inputSize = jsonSizeAtMost(input, this.resultsBudgetBytes);
    if (inputSize >= BUDGET_MIN_BYTES && this.retainedBytes + inputSize > this.resultsBudgetBytes) {
      return {
        refusal:
          `The emulator holds ${this.retainedBytes} of its ${this.resultsBudgetBytes} bytes of job inputs and results; ` +
          `this input of about ${inputSize} bytes does not fit. Retry once results expire or are purged (or raise cpsim serve --results-budget-mb)`,
      };
    }
    return inputSize;
  }

  /** Counts the input of the job in `slot` (its size from inputSize) until the job is gone. */
  holdInput(slot: number, size: number): void {
    if (size < BUDGET_MIN_BYTES) return;
    this.retainedBytes += size;
    this.bigInputs.set(slot, size);
  }

  /** The plan, or a failure of the same duration when its output cannot be kept. */
  withinBudget(plan: HandlerPlan, slot: number): HandlerPlan {
    if (plan.kind !== "complete") return plan;
    const max = this.maxOutputBytes;
    // A streaming job's output is its stream's outputs gathered: one output, which the handlers
    // hold once (they share the values), so the larger of the two is counted, not their sum (a
    // stream of 8.4 MB was refused as 16.8 MB, over the 16 MiB a job may output).
    let size = jsonSizeAtMost(plan.output, max);
    if (plan.stream !== undefined) {
      let streamed = 0;
      for (const s of plan.stream) if (streamed <= max) streamed += jsonSizeAtMost(s.output, max);
      size = Math.max(size, streamed);
    }
    const refused = this.admitOutput(slot, size);
    return refused === undefined ? plan : { kind: "fail", durationMs: plan.durationMs, error: refused };
  }

  /** Counts an output of `size` against the budget, or says why it cannot be kept. */
  admitOutput(slot: number, size: number): string | undefined {
    const refused = this.outputRefusal(size);
    if (refused !== undefined) return refused;
    if (size < BUDGET_MIN_BYTES) return undefined;
    this.retainedBytes += size;
    this.bigResults.set(slot, size);
    return undefined;
  }

  /** Why an output of `bytes` would not be kept now, or undefined when it would. */
  outputRefusal(bytes: number): string | undefined {
    if (bytes > this.maxOutputBytes) return outputTooLarge(bytes, this.maxOutputBytes);
    if (bytes >= BUDGET_MIN_BYTES && this.retainedBytes + bytes > this.resultsBudgetBytes) {
      return resultsBudgetFull(bytes, this.retainedBytes, this.resultsBudgetBytes);
    }
    return undefined;
  }

  releaseResult(slot: number): void {
    const size = this.bigResults.get(slot);
    if (size === undefined) return;
    this.retainedBytes -= size;
    this.bigResults.delete(slot);
  }

  releaseInput(slot: number): void {
    const size = this.bigInputs.get(slot);
    if (size === undefined) return;
    this.retainedBytes -= size;
    this.bigInputs.delete(slot);
  }

  /** Bytes of job inputs and outputs the budget counts now, the budget, and the jobs holding them. */
  retained(): { bytes: number; budget: number; jobs: number } {
    return { bytes: this.retainedBytes, budget: this.resultsBudgetBytes, jobs: new Set([...this.bigResults.keys(), ...this.bigInputs.keys()]).size };
  }
}
