/**
 * Watches RateLimit headers (IETF structured-field lists, parsed with structured-headers) to say
 * which window ran out and when, and, for the rate-limit scenario, whether the target counts down
 * consistently and answers 429 exactly when a window's remaining count reaches zero.
 *
 * Responses complete out of order under concurrency, so the sequence is judged on sets, not on
 * arrival order: within one window period (told apart by the reset time the headers give), the
 * remaining counts of successful answers must be distinct (each success spends one), and a 429
 * may only come in a period whose successes already reached zero in the window it names.
 */
import { parseList } from "structured-headers";

export interface RateLimitMember {
  readonly name: string;
  readonly remaining: number;
  readonly resetS?: number;
}

/** Parses `RateLimit: "minute";r=0;t=12, ...`; an unreadable header gives an empty list. */
export function parseRateLimitHeader(value: string | undefined): RateLimitMember[] {
  if (value === undefined) return [];
  try {
    const out: RateLimitMember[] = [];
    for (const [item, params] of parseList(value)) {
      if (Array.isArray(item)) continue;
      const name = typeof item === "string" ? item : String(item);
      const r = params.get("r");
      const t = params.get("t");
      if (typeof r !== "number") continue;
      out.push({ name, remaining: r, resetS: typeof t === "number" ? t : undefined });
    }
    return out;
  } catch {
    return [];
  }
}

export interface RateLimitPolicyMember {
  readonly name: string;
  readonly quota: number;
  readonly windowS?: number;
}

/** Parses `RateLimit-Policy: "minute";q=60;w=60, ...` (RFC 9651 list); an unreadable header gives an empty list. */
export function parseRateLimitPolicyHeader(value: string | undefined): RateLimitPolicyMember[] {
  if (value === undefined) return [];
  try {
    const out: RateLimitPolicyMember[] = [];
    for (const [item, params] of parseList(value)) {
      if (Array.isArray(item)) continue;
      const q = params.get("q");
      const w = params.get("w");
      if (typeof q !== "number") continue;
      out.push({ name: typeof item === "string" ? item : String(item), quota: q, windowS: typeof w === "number" ? w : undefined });
    }
    return out;
  } catch {
    return [];
  }
}

interface Period {
  /** Milliseconds since the run started when the window resets (within a second). */
  readonly resetAtMs: number;
  readonly remaining: Set<number>;
  duplicates: number;
  reachedZero: boolean;
  /** 429s naming this window in this period. */
  limited: number;
}

export interface RateLimitFindings {
  /** 429 answers (counted apart from errors). */
  readonly limited: number;
  /** When the first 429 came (ms since the scenario started) and the window it named. */
  readonly first429?: { readonly atMs: number; readonly window: string };
  /** Only when the scenario judges the sequence. */
  readonly sequence?: {
    readonly countdownViolations: number;
    readonly earlyLimits: number;
    readonly responsesWithoutHeader: number;
  };
}

const MAX_PERIODS = 10_000;

export class RateLimitWatch {
  private limited = 0;
  private first429?: { atMs: number; window: string };
  private readonly periods = new Map<string, Period[]>();
  private pending429: { window: string; resetAtMs: number }[] = [];
  private withoutHeader = 0;

  constructor(private readonly judgeSequence: boolean) {}

  /** Called for every response; parses headers only when needed. */
  observe(status: number, rateLimit: string | undefined, elapsedMs: number): void {
    if (status !== 429 && !this.judgeSequence) return;
    const members = parseRateLimitHeader(rateLimit);
    if (status === 429) {
      this.limited++;
      const exhausted = members.find((m) => m.remaining === 0);
      const window = exhausted?.name ?? "unknown";
      if (this.first429 === undefined) this.first429 = { atMs: Math.round(elapsedMs), window };
      if (this.judgeSequence && exhausted && this.pending429.length < MAX_PERIODS * 10) {
        this.pending429.push({ window, resetAtMs: elapsedMs + (exhausted.resetS ?? 0) * 1000 });
      }
      return;
    }
    if (members.length === 0) {
      if (status >= 200 && status < 300) this.withoutHeader++;
      return;
    }
    if (status < 200 || status >= 300) return;
    for (const m of members) {
      const p = this.period(m.name, elapsedMs + (m.resetS ?? 0) * 1000);
      if (!p) continue;
      if (p.remaining.has(m.remaining)) p.duplicates++;
      else if (p.remaining.size < 1_000_000) p.remaining.add(m.remaining);
      if (m.remaining === 0) p.reachedZero = true;
    }
  }

  private period(window: string, resetAtMs: number): Period | undefined {
    let list = this.periods.get(window);
    if (!list) this.periods.set(window, (list = []));
    // The header's reset is whole seconds (rounded up), so one period's estimates agree within ~1 s.
    let p = list.find((x) => Math.abs(x.resetAtMs - resetAtMs) < 2500);
    if (!p) {
      if (list.length >= MAX_PERIODS) return undefined;
      p = { resetAtMs, remaining: new Set(), duplicates: 0, reachedZero: false, limited: 0 };
      list.push(p);
    }
    return p;
  }

  findings(): RateLimitFindings {
    let earlyLimits = 0;
    if (this.judgeSequence) {
      for (const l of this.pending429) {
        const p = this.periods.get(l.window)?.find((x) => Math.abs(x.resetAtMs - l.resetAtMs) < 2500);
        // A 429 in a period whose successes never reached zero came before the quota was spent.
        // (A period with no success at all was spent before the run began: nothing to judge.)
        if (p && !p.reachedZero) earlyLimits++;
      }
    }
    let countdownViolations = 0;
    for (const list of this.periods.values()) for (const p of list) countdownViolations += p.duplicates;
    return {
      limited: this.limited,
      first429: this.first429,
      sequence: this.judgeSequence ? { countdownViolations, earlyLimits, responsesWithoutHeader: this.withoutHeader } : undefined,
    };
  }
}
