/** A light request repeated while a heavy scenario runs: the server must keep serving meanwhile. */
import type { CheckOutcome } from "./stream-reassembly.ts";
import { call } from "./target-calls.ts";

/** While a run lasts, GETs `url` every 100 ms on its own connection: the server must keep serving. */
export function startCanary(url: string, key: string): { stop(): Promise<CheckOutcome> } {
  let passes = 0;
  let fails = 0;
  let detail: string | undefined;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        const r = await call("GET", url, key);
        if (r.status >= 200 && r.status < 300) passes++;
        else {
          fails++;
          detail ??= `GET ${url} answered ${r.status}`;
        }
      } catch (err) {
        fails++;
        detail ??= `GET ${url} failed: ${(err as Error).message}`;
      }
      await new Promise((r) => setTimeout(r, 100));
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
