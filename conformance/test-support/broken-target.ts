/**
 * Test-only: the embedded emulator, whole or with one behaviour broken, to show the suite names
 * the rule a broken implementation breaks. A `Breakage` sits in front of the real backend's
 * `handle` and may rewrite the request, the answer (also the answer of a request that waited,
 * runsync or status-sync), or both. The target outlives `conform()` (its close is a no-op) so a
 * test can replay a failure's curl script against it, then `stop()` it.
 */
import type { EmulatorBackend } from "../../sim/http/index.ts";
import type { ApiOutcome, ApiRequest, ApiResponse } from "../../sim/api/types.ts";
import type { EmbeddedTarget } from "../conform.ts";
import { startEmbeddedEmulator } from "../embedded-emulator.ts";
import type { Keys } from "../keys.ts";

export type Breakage = (request: ApiRequest, next: (request: ApiRequest) => ApiOutcome) => ApiOutcome;

export function breakBackend(inner: EmulatorBackend, breakage: Breakage): EmulatorBackend {
  return {
    now: () => inner.now(),
    advanceTo: (t) => inner.advanceTo(t),
    nextEventTime: () => inner.nextEventTime(),
    handle: (request) => breakage(request, (r) => inner.handle(r)),
    onJobFinal: (e, j, l) => inner.onJobFinal(e, j, l),
    drainWebhooks: () => inner.drainWebhooks(),
    webhookResult: (d, ok) => inner.webhookResult(d, ok),
    reset: (seed) => inner.reset(seed),
    apiKeys: () => inner.apiKeys(),
    routes: () => inner.routes(),
  };
}

/** An answer changed by `change`, whether it came at once or after a wait. */
export function mapResponse(outcome: ApiOutcome, change: (r: ApiResponse) => ApiResponse): ApiOutcome {
  return outcome.kind === "response"
    ? { kind: "response", response: change(outcome.response) }
    : { ...outcome, render: (t) => change(outcome.render(t)) };
}

export interface BrokenTarget extends EmbeddedTarget {
  readonly keys: Keys;
  stop(): Promise<void>;
}

/** The embedded emulator on a manual clock, broken by `breakage` when one is given. */
export async function startBroken(breakage?: Breakage, seed = 1): Promise<BrokenTarget> {
  const { emulator, keys } = await startEmbeddedEmulator(seed, (backend) => (breakage ? breakBackend(backend, breakage) : backend));
  return brokenTarget(emulator, keys);
}

/** A started embedded emulator as a target that outlives `conform()`. */
export function brokenTarget(emulator: Awaited<ReturnType<typeof startEmbeddedEmulator>>["emulator"], keys: Keys): BrokenTarget {
  return {
    rest: emulator.baseUrl,
    serverless: emulator.serverlessUrl,
    keys,
    endpoint: "conformance",
    controlApi: true,
    close: async () => {},
    stop: () => emulator.close(),
  };
}
