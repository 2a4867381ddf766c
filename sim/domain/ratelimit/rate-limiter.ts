/**
 * Per-account request quotas over minute, hour and day windows, fixed (aligned to the clock, the
 * default, or anchored at an account's first request) or sliding (windows.ts's RATE_WINDOW_MODES;
 * window-counts.ts, sliding-counts.ts).
 *
 * State is a few numbers per account and window in typed arrays sized by the catalog, so it is
 * bounded by the number of accounts.
 * A denied request is not counted: a client that keeps retrying too early does not push its own
 * reset further away. Exempt keys and accounts without quotas are never limited.
 */
import type { Micros } from "../../core/index.ts";
import { WINDOW_MICROS, WINDOW_NAMES, WINDOW_SECONDS } from "./windows.ts";
import type { Quotas, RateWindowMode, WindowName } from "./windows.ts";
import type { WindowCounts } from "./window-counts.ts";
import { windowCounts } from "./counts-for-mode.ts";
import { UnknownAccountError } from "./unknown-account-error.ts";

export interface WindowState {
  readonly window: WindowName;
  /** Quota q of the window. */
  readonly quota: number;
  /** Requests still allowed in the current window, never negative. */
  readonly remaining: number;
  /** Whole seconds until the window resets, as the window mode reads "reset" (ceil; 1..w). */
  readonly resetSeconds: number;
  /** Window length w in seconds. */
  readonly windowSeconds: number;
}

export interface RateDecision {
  readonly allowed: boolean;
  /** True when the account or key is not limited; `windows` is then empty. */
  readonly unlimited: boolean;
  /** One entry per window in header order (minute, hour, day); after counting this request when allowed. */
  readonly windows: readonly WindowState[];
  /** When denied: the window that binds (the exhausted one that resets last). */
  readonly deniedWindow?: WindowName;
  /** When denied: whole seconds to wait, never earlier than deniedWindow's reset. */
  readonly retryAfterSeconds?: number;
}

export interface RateAccount {
  readonly id: string;
  /** null: not limited. */
  readonly rateLimits: Quotas | null;
}

export interface RateLimiterOptions {
  /** How windows count (default "fixed-aligned"). */
  readonly windows?: RateWindowMode;
}

export interface RateCheckOptions {
  /** The request's key is exempt from limits (the catalog's `exempt` access). */
  readonly exempt?: boolean;
  /** Units of quota the request takes (default 1): a GraphQL document counts each mutation. All or none are counted. */
  readonly cost?: number;
}

const UNLIMITED: RateDecision = Object.freeze({ allowed: true, unlimited: true, windows: Object.freeze([]) });
const N = WINDOW_NAMES.length;

export class RateLimiter {
  readonly mode: RateWindowMode;
  private readonly index = new Map<string, number>();
  private readonly quota: Float64Array;
  private readonly limited: Uint8Array;
  /** Per account and window (slot a * N + w): the requests counted, as the mode counts them. */
  private readonly counts: WindowCounts;

  constructor(accounts: readonly RateAccount[], options: RateLimiterOptions = {}) {
    const n = accounts.length;
    this.mode = options.windows ?? "fixed-aligned";
    this.quota = new Float64Array(n * N);
    this.limited = new Uint8Array(n);
    this.counts = windowCounts(this.mode, n * N);
    accounts.forEach((account, i) => {
      this.index.set(account.id, i);
      const limits = account.rateLimits;
      if (limits === null) return;
      this.limited[i] = 1;
      this.quota[i * N] = limits.minute;
      this.quota[i * N + 1] = limits.hour;
      this.quota[i * N + 2] = limits.day;
    });
  }

  /** Counts one request at `now` if every window has room; reports the windows either way. */
  check(accountId: string, now: Micros, options: RateCheckOptions = {}): RateDecision {
    const a = this.accountIndex(accountId);
    if (options.exempt === true || this.limited[a] === 0) return UNLIMITED;
    const base = a * N;
    const cost = options.cost ?? 1;
    let denied = -1;
    let deniedRoom = 0;
    for (let w = 0; w < N; w++) {
      const slot = base + w;
      const quota = this.quota[slot]!;
      if (this.counts.used(slot, WINDOW_MICROS[w]!, now) + cost > quota) {
        // The window whose room comes back last is the one a retry must wait for.
        const room = this.counts.roomMicros(slot, WINDOW_MICROS[w]!, now, cost, quota);
        if (denied < 0 || room >= deniedRoom) [denied, deniedRoom] = [w, room];
      }
    }
    if (denied < 0) {
      for (let w = 0; w < N; w++) this.counts.add(base + w, WINDOW_MICROS[w]!, now, cost);
      return { allowed: true, unlimited: false, windows: this.states(a, now) };
    }
    return {
      allowed: false,
      unlimited: false,
      windows: this.states(a, now),
      deniedWindow: WINDOW_NAMES[denied],
      retryAfterSeconds: Math.ceil(deniedRoom / 1_000_000),
    };
  }

  /** The windows as they stand, without counting a request. Pure: changes nothing. */
  peek(accountId: string, now: Micros, options: RateCheckOptions = {}): RateDecision {
    const a = this.accountIndex(accountId);
    if (options.exempt === true || this.limited[a] === 0) return UNLIMITED;
    return { allowed: true, unlimited: false, windows: this.states(a, now) };
  }

  /** Every limited account's windows, for invariant checks. */
  snapshot(now: Micros): { accountId: string; windows: readonly WindowState[] }[] {
    const out: { accountId: string; windows: readonly WindowState[] }[] = [];
    for (const [accountId, a] of this.index) {
      if (this.limited[a] === 1) out.push({ accountId, windows: this.states(a, now) });
    }
    return out;
  }

  private accountIndex(accountId: string): number {
    const a = this.index.get(accountId);
    if (a === undefined) throw new UnknownAccountError(accountId);
    return a;
  }

  private states(a: number, now: Micros): WindowState[] {
    const base = a * N;
    const out: WindowState[] = [];
    for (let w = 0; w < N; w++) {
      const slot = base + w;
      const len = WINDOW_MICROS[w]!;
      const quota = this.quota[slot]!;
      out.push({
        window: WINDOW_NAMES[w]!,
        quota,
        remaining: Math.max(0, quota - this.counts.used(slot, len, now)),
        resetSeconds: Math.ceil(this.counts.resetMicros(slot, len, now) / 1_000_000),
        windowSeconds: WINDOW_SECONDS[w]!,
      });
    }
    return out;
  }
}
