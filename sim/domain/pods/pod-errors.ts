/** Typed errors of the pod registry: misuse by callers. Refusals a client can cause are outcomes, not errors. */
import { SimError } from "../../core/index.ts";

export class PodOptionError extends SimError {
  override readonly name = "PodOptionError";
  constructor(
    readonly option: string,
    readonly value: unknown,
    readonly expected: string,
  ) {
    super(`pod option ${option} must be ${expected}, got ${JSON.stringify(value) ?? String(value)}`, "CPSIM_ERR_POD_OPTION");
  }
}
