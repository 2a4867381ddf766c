/** Remaining quota is never negative and never above the quota, in every window of every account. */
import type { ServerlessChecker, ServerlessCheckState } from "./serverless-check-state.ts";

export const quotaNonNegative: ServerlessChecker = {
  id: "ratelimit.quota-non-negative",
  title: "Remaining quota never negative",
  check(state: ServerlessCheckState): string[] {
    const out: string[] = [];
    for (const account of state.quotas ?? []) {
      for (const w of account.windows) {
        if (!(w.remaining >= 0)) out.push(`account ${account.accountId}: ${w.window} remaining ${w.remaining} < 0`);
        if (w.remaining > w.quota) out.push(`account ${account.accountId}: ${w.window} remaining ${w.remaining} > quota ${w.quota}`);
      }
    }
    return out;
  },
};
