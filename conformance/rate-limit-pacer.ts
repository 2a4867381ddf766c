/**
 * Keeps a run within the target's rate limits. Real targets limit each user; a suite that
 * ignored that would spend most rules on 429s and report them as failures. So the pacer reads
 * `RateLimit` from every answer, per key (windows are per user), and before the next request
 * with that key waits for a window whose remaining count is low to reset. After a 429 it waits
 * what `Retry-After` says. Every wait is bounded, alone and in total over the run: past either
 * bound the client gives up with a target error rather than hang.
 */
import { parseRateLimit } from "./rate-limit-headers.ts";
import { retryAfterMs } from "./retry-after.ts";

export interface PacingOptions {
  /** Wait for a window to reset once its remaining count is at most this (default 0). */
  readonly reserve: number;
  /** The longest single wait, in ms (default 65 s: a minute window and a margin). */
  readonly maxWaitMs: number;
  /** The most time the whole run may spend waiting on rate limits, in ms (default 5 min). */
  readonly budgetMs: number;
  /** The most times one request is sent again after a 429 (default 5). */
  readonly maxRetries: number;
  /** The wait after a 429 that says neither Retry-After nor a reset (default 1 s). */
  readonly defaultRetryMs: number;
  /** Added to each wait so the request lands after the reset, not on it (default 50 ms). */
  readonly marginMs: number;
}

export const defaultPacing: PacingOptions = {
  reserve: 0,
  maxWaitMs: 65_000,
  budgetMs: 300_000,
  maxRetries: 5,
  defaultRetryMs: 1000,
  marginMs: 50,
};

interface WindowState {
  readonly name: string;
  remaining: number;
  /** Absolute time (ms, the pacer's clock) the window resets; undefined when not told. */
  readonly resetAt?: number;
}

export interface Wait {
  readonly ms: number;
  readonly reason: string;
}

export class RateLimitPacer {
  private readonly windows = new Map<string, WindowState[]>();
  private waited = 0;
  private longest = 0;
  /** The end of the latest wait admitted (the pacer's clock): waits side by side overlap. */
  private waitingUntil = 0;

  constructor(
    readonly options: PacingOptions,
    private readonly now: () => number,
  ) {}

  /** Milliseconds spent waiting so far. */
  get waitedMs(): number {
    return this.waited;
  }

  /** The longest single wait admitted so far, in ms (0 before the first). */
  get longestWaitMs(): number {
    return this.longest;
  }

  /** Records the windows a response reports; a missing or malformed header changes nothing. */
  observe(identity: string, header: string | undefined): void {
    if (header === undefined) return;
    try {
      const at = this.now();
      this.windows.set(
        identity,
        parseRateLimit(header).map((w) => ({
          name: w.name,
          remaining: w.remaining,
          resetAt: w.reset === undefined ? undefined : at + w.reset * 1000,
        })),
      );
    } catch {
      // Judging the header is the rate-limit rules' business; pacing just goes without it.
    }
  }

  /** Counts a request against the known windows until the next answer says better. */
  noteSent(identity: string): void {
    for (const w of this.windows.get(identity) ?? []) w.remaining = Math.max(0, w.remaining - 1);
  }

  /** The wait needed before sending with `identity`, if a window is (nearly) spent. */
  waitBeforeSend(identity: string): Wait | undefined {
    const now = this.now();
    let longest: Wait | undefined;
    for (const w of this.windows.get(identity) ?? []) {
      if (w.remaining > this.options.reserve || w.resetAt === undefined || w.resetAt <= now) continue;
      const ms = w.resetAt - now + this.options.marginMs;
      if (!longest || ms > longest.ms) longest = { ms, reason: `the "${w.name}" window has ${w.remaining} requests left` };
    }
    return longest;
  }

  /** The wait after a 429: Retry-After, else the latest reset of a spent window, else the default. */
  waitAfter429(identity: string, retryAfter: string | undefined, rateLimit: string | undefined): Wait {
    this.observe(identity, rateLimit);
    const now = this.now();
    const told = retryAfterMs(retryAfter, now);
    if (told !== undefined) return { ms: told + this.options.marginMs, reason: `429 with Retry-After: ${retryAfter}` };
    const spent = (this.windows.get(identity) ?? []).filter((w) => w.remaining === 0 && w.resetAt !== undefined && w.resetAt > now);
    if (spent.length > 0) {
      const resetAt = Math.max(...spent.map((w) => w.resetAt as number));
      return { ms: resetAt - now + this.options.marginMs, reason: "429 without Retry-After; waiting for the spent window to reset" };
    }
    return { ms: this.options.defaultRetryMs, reason: "429 without Retry-After or a reset time" };
  }

  /**
   * Takes `wait` out of the budget, or says why it cannot: longer than one wait may be, or
   * more than the run has left. Waits of requests sent side by side overlap, so the budget
   * counts only the time a wait adds past the ones already admitted. The windows are kept: the
   * other requests with that key must hold back too until the spent window resets (a window
   * whose reset has passed is ignored until the next answer reports it).
   */
  admit(identity: string, wait: Wait): string | undefined {
    if (wait.ms > this.options.maxWaitMs) {
      return `${wait.reason}; waiting ${Math.round(wait.ms / 1000)} s is over the limit of ${Math.ceil(this.options.maxWaitMs / 1000)} s for one wait`;
    }
    const now = this.now();
    const added = Math.max(0, now + wait.ms - Math.max(now, this.waitingUntil));
    if (this.waited + added > this.options.budgetMs) {
      return `${wait.reason}; waiting ${Math.round(wait.ms / 1000)} s more would exceed the run's rate-limit budget of ${Math.ceil(this.options.budgetMs / 1000)} s`;
    }
    this.waited += added;
    this.longest = Math.max(this.longest, wait.ms);
    this.waitingUntil = Math.max(this.waitingUntil, now + wait.ms);
    return undefined;
  }
}
