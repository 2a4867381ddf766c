/**
 * The sentences of the memory budget's refusals, in one place: the model fails a job whose output
 * is too large with them, and handlers that can tell the size before building the output (the
 * conformance handler's `bytes` and `stream`) fail with the same words without allocating it.
 */

export function outputTooLarge(bytes: number, limit: number): string {
  return (
    `the job's output is about ${bytes} bytes, above the emulator's per-job output limit of ${limit} bytes; ` +
    `return less, or raise the limit (cpsim serve --max-output-mb)`
  );
}

export function resultsBudgetFull(bytes: number, retained: number, budget: number): string {
  return (
    `the job's output of about ${bytes} bytes does not fit the emulator's budget for retained results ` +
    `(${retained} of ${budget} bytes held); results are freed as they expire or are purged ` +
    `(or raise the budget: cpsim serve --results-budget-mb)`
  );
}
