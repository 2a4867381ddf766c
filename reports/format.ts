/** Small value formatters shared by the writers, so every format shows times the same way. */

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "-";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Requests per second over the whole run; 0 when the run took no measurable time. */
export function requestsPerSecond(requests: number, wallTimeMs: number): number {
  return wallTimeMs > 0 ? requests / (wallTimeMs / 1000) : 0;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}
