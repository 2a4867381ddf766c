/** A light request repeated while a heavy scenario runs: the server must keep serving meanwhile. */
import type { CheckOutcome } from "./stream-reassembly.ts";
import type { LoadTarget } from "./target.ts";
import { call } from "./target-calls.ts";

/**
 * While a run lasts, GETs `url` every `everyMs` (100 ms; longer when --respect-rate-limit leaves it a
 * smaller share of the quota): the server must keep serving. A 429 is the quota,
 * not the server failing to serve: it is neither a pass nor a failure.
 */
export function startCanary(target: LoadTarget, url: string, key: string, everyMs = 100): { stop(): Promise<CheckOutcome> } {
  let passes = 0;
  let fails = 0;
  let detail: string | undefined;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        const r = await call(target, "GET", url, key, undefined, { raw429: true });
        if (r.status >= 200 && r.status < 300) passes++;
        else if (r.status !== 429) {
          fails++;
          detail ??= `GET ${url} answered ${r.status}`;
        }
      } catch (err) {
        fails++;
        detail ??= `GET ${url} failed: ${(err as Error).message}`;
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { passes, fails, detail };
    },
  };
}
