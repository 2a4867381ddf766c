/**
 * Reads `Retry-After` (RFC 9110 10.2.3): a number of seconds, or an HTTP date. Anything else is
 * unknown (undefined), and the caller falls back on the rate-limit headers or a default.
 */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (/[A-Za-z]/.test(text) && Number.isFinite(date)) return Math.max(0, date - now);
  return undefined;
}
