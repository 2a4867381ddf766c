import type { CheckedResponse } from "./checks.ts";
import type { SecondRow } from "./scenario-stats.ts";

/** The limits and hooks of one scenario's run, the same for both models. */
export interface RunBounds {
  readonly durationS: number;
  readonly maxRequests: number;
  readonly connections: number;
  readonly pipelining: number;
  /** Per-request timeout. */
  readonly timeoutS: number;
  /** Called once a second with the interval just closed. */
  readonly onSecond?: (row: SecondRow) => void;
  /** Sees every answered response (e.g. to collect created pod ids); keep it cheap. */
  readonly onResponse?: (r: CheckedResponse) => void;
}

/** Header names lower-cased, as undici gives them and as checks expect. */
export function lowerHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const k in headers) out[k.toLowerCase()] = headers[k];
  return out;
}
