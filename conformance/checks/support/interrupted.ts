/**
 * A property stopped by its time bound before a run could finish (fast-check then reports a
 * failure without a counterexample): no verdict on the rule, and no bug of the check either.
 * The runner reports the rule skipped, saying the time bound ran out.
 */
export class PropertyInterrupted extends Error {
  override readonly name = "PropertyInterrupted";
  constructor() {
    super("the property's time bound ran out before a run could judge the rule");
  }
}

/** Throws PropertyInterrupted when fast-check's failure is only the interruption, not a verdict. */
export function throwIfOnlyInterrupted(details: { readonly failed: boolean; readonly interrupted: boolean }, hasVerdict: boolean): void {
  if (details.failed && details.interrupted && !hasVerdict) throw new PropertyInterrupted();
}
