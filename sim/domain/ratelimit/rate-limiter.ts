/**
 * Per-account request quotas over fixed minute, hour and day windows.
 *
 * State is two numbers per account and window (the window index last counted and the requests
 * counted in it) in typed arrays sized by the catalog, so it is bounded by the number of accounts.
 * A denied request is not counted: a client that keeps retrying too early does not push its own
 * reset further away. Exempt keys and accounts without quotas are never limited.
 */
import type { Micros } from "../../core/index.ts";
import { WINDOW_MICROS, WINDOW_NAMES, WINDOW_SECONDS } from "./windows.ts";
import type { Quotas, WindowName } from "./windows.ts";
import { UnknownAccountError } from "./unknown-account-error.ts";

export interface WindowState {
  readonly window: WindowName;
  /** Quota q of the window. */
  readonly quota: number;
  /** Requests still allowed in the current window, never negative. */
  readonly remaining: number;
  /** Whole seconds until the window resets (ceil; 1..w). */
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

export interface RateCheckOptions {
  /** The request's key is exempt from limits (the catalog's `exempt` access). */
  readonly exempt?: boolean;
  /** Units of quota the request takes (default 1): a GraphQL document counts each mutation. All or none are counted. */
  readonly cost?: number;
}

const UNLIMITED: RateDecision = Object.freeze({ allowed: true, unlimited: true, windows: Object.freeze([]) });
const N = WINDOW_NAMES.length;

export class RateLimiter {
  private readonly index = new Map<string, number>();
  private readonly quota: Float64Array;
  /** Per account and window: index of the window counted in `used` (-1 before the first request). */
  private readonly windowIndex: Float64Array;
  private readonly used: Float64Array;
  private readonly limited: Uint8Array;

  constructor(accounts: readonly RateAccount[]) {
    const n = accounts.length;
    this.quota = new Float64Array(n * N);
    this.windowIndex = new Float64Array(n * N).fill(-1);
    this.used = new Float64Array(n * N);
    this.limited = new Uint8Array(n);
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
    this.roll(a, now);
    const base = a * N;
    const cost = options.cost ?? 1;
    let denied = -1;
    for (let w = 0; w < N; w++) {
      if (this.used[base + w] + cost > this.quota[base + w]) {
        // The window that resets last is the one a retry must wait for.
        if (denied < 0 || this.resetMicros(w, now) >= this.resetMicros(denied, now)) denied = w;
      }
    }
    if (denied < 0) {
      for (let w = 0; w < N; w++) this.used[base + w] += cost;
      return { allowed: true, unlimited: false, windows: this.states(a, now) };
    }
    return {
      allowed: false,
      unlimited: false,
      windows: this.states(a, now),
      deniedWindow: WINDOW_NAMES[denied],
      retryAfterSeconds: Math.ceil(this.resetMicros(denied, now) / 1_000_000),
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

  /** Starts a new count in every window whose index moved on since the last request. */
  private roll(a: number, now: Micros): void {
    const base = a * N;
    for (let w = 0; w < N; w++) {
      const k = Math.floor(now / WINDOW_MICROS[w]);
      if (this.windowIndex[base + w] !== k) {
        this.windowIndex[base + w] = k;
        this.used[base + w] = 0;
      }
    }
  }

  private resetMicros(w: number, now: Micros): number {
    const len = WINDOW_MICROS[w];
    return (Math.floor(now / len) + 1) * len - now;
  }

  private states(a: number, now: Micros): WindowState[] {
    const base = a * N;
    const out: WindowState[] = [];
    for (let w = 0; w < N; w++) {
      const current = this.windowIndex[base + w] === Math.floor(now / WINDOW_MICROS[w]);
      const used = current ? this.used[base + w] : 0;
      const quota = this.quota[base + w];
      out.push({
        window: WINDOW_NAMES[w],
        quota,
        remaining: Math.max(0, quota - used),
        resetSeconds: Math.ceil(this.resetMicros(w, now) / 1_000_000),
        windowSeconds: WINDOW_SECONDS[w],
      });
    }
    return out;
  }
}
