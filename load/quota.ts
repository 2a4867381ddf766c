/**
 * The target's rate limit as its answers state it: `RateLimit` (what is left of each window and
 * when it resets) and `RateLimit-Policy` (each window's quota and length), read with one GET
 * before a run and before each scenario. The run is paced from these figures, the rate-limit
 * scenario is skipped when its key's quota is more than it may send, and every message about a
 * 429 names them.
 */
import { parseRateLimitHeader, parseRateLimitPolicyHeader, type RateLimitMember, type RateLimitPolicyMember } from "./rate-limit-watch.ts";
import type { LoadTarget } from "./target.ts";
import { call } from "./target-calls.ts";

export interface Quota {
  /** What the GET was and how it was answered. */
  readonly read: string;
  readonly status: number;
  readonly windows: readonly RateLimitMember[];
  readonly policies: readonly RateLimitPolicyMember[];
}

/**
 * GETs `url` with `key` and reads its rate-limit headers. `paced`: the call waits for a spent
 * window first (--respect-rate-limit); otherwise a 429 is taken as it comes, and tells the
 * pacer of later calls what to wait for.
 */
export async function readQuota(target: LoadTarget, url: string, key: string, paced: boolean): Promise<Quota> {
  const r = await call(target, "GET", url, key, undefined, { raw429: !paced });
  return { read: `GET ${url}`, status: r.status, windows: parseRateLimitHeader(r.headers.ratelimit), policies: parseRateLimitPolicyHeader(r.headers["ratelimit-policy"]) };
}

/** `"minute" 60 per 60 s (12 left, resets in 40 s)`, one per window; or that the target states none. */
export function describeQuota(q: Quota | undefined): string {
  if (!q || (q.windows.length === 0 && q.policies.length === 0)) return "no RateLimit or RateLimit-Policy header in its answers";
  const names = [...new Set([...q.policies.map((p) => p.name), ...q.windows.map((w) => w.name)])];
  return names
    .map((n) => {
      const p = q.policies.find((x) => x.name === n);
      const w = q.windows.find((x) => x.name === n);
      const quota = p ? `${p.quota} per ${p.windowS ?? "?"} s` : "quota not stated";
      const left = w ? ` (${w.remaining} left${w.resetS !== undefined ? `, resets in ${w.resetS} s` : ""})` : "";
      return `"${n}" ${quota}${left}`;
    })
    .join(", ");
}

/**
 * Requests per second that fit every window for `durationS` seconds: what is left of a window
 * spread until its reset, and, past a reset within the run, no more than the window's quota over
 * its length (unknown quota: nothing beyond what is left). A tenth is kept for the calls around
 * the run (setup, teardown, the quota reads). Undefined when the target states no limit.
 */
export function quotaRate(q: Quota, durationS: number): number | undefined {
  const rates: number[] = [];
  for (const w of q.windows) {
    const p = q.policies.find((x) => x.name === w.name);
    const reset = Math.max(0.5, w.resetS ?? p?.windowS ?? durationS);
    if (reset >= durationS) rates.push(w.remaining / reset);
    else if (p?.windowS) rates.push(Math.min(w.remaining / reset, p.quota / p.windowS));
    else rates.push(w.remaining / durationS);
  }
  for (const p of q.policies) if (!q.windows.some((w) => w.name === p.name) && p.windowS) rates.push(p.quota / p.windowS);
  if (rates.length === 0) return undefined;
  return Math.max(0.1, Math.floor(Math.min(...rates) * 0.9 * 100) / 100);
}

/** The fewest requests a window lets through before its 429s: the tightest window's quota (or what is left of it). */
export function quotaBefore429(q: Quota): number | undefined {
  if (q.windows.length > 0) return Math.min(...q.windows.map((w) => w.remaining));
  return q.policies.length > 0 ? Math.min(...q.policies.map((p) => p.quota)) : undefined;
}
