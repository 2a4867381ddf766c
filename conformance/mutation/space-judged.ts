/**
 * How a run under a point of the open-choice space is judged against the run on the emulator's
 * conventions: zero failures, no target errors, and every rule judged on the emulator judged there
 * too, but for the exceptions `UNJUDGED_FOR_A_REASON` gives, each with its reason.
 */
import type { Conventions } from "../../sim/conventions/index.ts";

/** Rules a point may leave unjudged, and why. */
export function UNJUDGED_FOR_A_REASON(c: Conventions): Record<string, string> {
  return {
    ...(c.actions !== "body"
      ? {
          "pods.action.action-enum": "the action is in the path: no action body to refuse",
          "pods.action.field-type": "the action is in the path: no action body to refuse",
        }
      : {}),
    ...(c.rateQuotas === "generous"
      ? Object.fromEntries(
          ["ratelimit.429-when-spent", "ratelimit.retry-after", "ratelimit.429-detail-names-window"].map((id) => [
            id,
            "the quotas are ten times the bundled ones: the other account's minute window (600) is more than the 500 requests the suite spends to reach a 429",
          ]),
        )
      : {}),
  };
}

/** Rules a run judged (passed or failed), from each rule's status. */
export const judgedOf = (statuses: Readonly<Record<string, string>>): Set<string> => new Set(Object.entries(statuses).filter(([, s]) => s !== "skip").map(([id]) => id));

/** Rules judged on the emulator that the run under `c` left unjudged without a reason. */
export function unjudgedWithoutReason(c: Conventions, onEmulator: ReadonlySet<string>, onPoint: ReadonlySet<string>): string[] {
  const reasons = UNJUDGED_FOR_A_REASON(c);
  return [...onEmulator].filter((id) => !onPoint.has(id) && reasons[id] === undefined).sort();
}
