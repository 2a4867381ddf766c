/**
 * Virtual time to ISO 8601 strings without a Date object: sim/domain is pure and must not
 * touch the wall clock, so dates are computed from a fixed epoch with integer arithmetic
 * (Howard Hinnant's civil-from-days algorithm).
 */

/** The wall-clock instant that virtual time 0 stands for, in milliseconds since 1970 (2026-01-01T00:00:00Z). */
export const DEFAULT_EPOCH_MS = 1_767_225_600_000;

function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return [y, m, d];
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** Formats epoch milliseconds as `YYYY-MM-DDTHH:MM:SS.mmmZ`, exactly like Date#toISOString for years 0..9999. */
export function isoFromEpochMs(epochMs: number): string {
  const ms = Math.floor(epochMs);
  const days = Math.floor(ms / 86_400_000);
  let rest = ms - days * 86_400_000;
  const [y, m, d] = civilFromDays(days);
  const hh = Math.floor(rest / 3_600_000);
  rest -= hh * 3_600_000;
  const mm = Math.floor(rest / 60_000);
  rest -= mm * 60_000;
  const ss = Math.floor(rest / 1000);
  const milli = rest - ss * 1000;
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}T${pad(hh)}:${pad(mm)}:${pad(ss)}.${pad(milli, 3)}Z`;
}

/** Virtual microseconds to an ISO string, given the epoch virtual time 0 stands for. */
export function isoFromMicros(micros: number, epochMs: number = DEFAULT_EPOCH_MS): string {
  return isoFromEpochMs(epochMs + Math.floor(micros / 1000));
}
