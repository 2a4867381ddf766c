/**
 * What the invariant checkers look at: plain snapshots of the model (built by `inspect()` and
 * `snapshot()`, never by the hot path) and the job transitions recorded since the last check
 * (ServerlessOptions.onTransition). Each checker returns one message per violation; [] is good.
 */
import type { JobTransition, ServerlessInspection } from "../serverless/index.ts";
import type { WindowState } from "../ratelimit/index.ts";

export interface ServerlessCheckState {
  readonly serverless?: ServerlessInspection;
  /** Transitions since the previous check, in order. */
  readonly transitions?: readonly JobTransition[];
  readonly quotas?: readonly { readonly accountId: string; readonly windows: readonly WindowState[] }[];
}

export interface ServerlessChecker {
  readonly id: string;
  readonly title: string;
  check(state: ServerlessCheckState): string[];
}
