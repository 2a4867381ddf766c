/**
 * Test-only: the embedded emulator with one behaviour broken, to show the suite names the rule
 * a broken implementation breaks. A `Breakage` sits in front of the real backend's `handle` and
 * may rewrite the request, the answer, or both. The target outlives `conform()` (its close is a
 * no-op) so a test can replay a failure's curl script against it, then `stop()` it.
 */
import { loadCatalog } from "../../../sim/catalog/index.ts";
import { startEmulator } from "../../../sim/http/index.ts";
import type { EmulatorBackend } from "../../../sim/http/index.ts";
import { PlatformBackend } from "../../../sim/http/platform-backend.ts";
import type { ApiOutcome, ApiRequest, ApiResponse } from "../../../sim/api/types.ts";
import type { EmbeddedTarget } from "../../conform.ts";
import { embeddedCatalog } from "../../embedded.ts";
import type { Keys } from "../../keys.ts";

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
  return outcome.kind === "response" ? { kind: "response", response: change(outcome.response) } : { ...outcome, render: (t) => change(outcome.render(t)) };
}

export interface BrokenTarget extends EmbeddedTarget {
  readonly keys: Keys;
  stop(): Promise<void>;
}

export async function startBroken(breakage: Breakage, seed = 1): Promise<BrokenTarget> {
  const catalog = embeddedCatalog(loadCatalog());
  const emulator = await startEmulator({
    host: "127.0.0.1",
    port: 0,
    seed,
    clock: "manual",
    control: true,
    createBackend: (o) => breakBackend(new PlatformBackend({ ...o, catalog }), breakage),
  });
  const keyOf = (account: string, access: string) => catalog.accounts.find((a) => a.id === account)?.keys.find((k) => k.access === access)?.key;
  return {
    rest: emulator.baseUrl,
    serverless: emulator.serverlessUrl,
    keys: { api: keyOf("acct-alpha", "full"), restricted: keyOf("acct-alpha", "read-only"), other: keyOf("acct-beta", "full") },
    endpoint: "conformance",
    controlApi: true,
    close: async () => {},
    stop: () => emulator.close(),
  };
}

/** The key of the request's Authorization header or `api_key`, whichever it carries. */
export function keyOfRequest(request: ApiRequest): string | undefined {
  const header = request.headers["authorization"]?.trim();
  if (header) return header.replace(/^bearer\s+/i, "");
  return request.query["api_key"];
}

export function withAuthorization(request: ApiRequest, key: string): ApiRequest {
  return { ...request, headers: { ...request.headers, authorization: `Bearer ${key}` } };
}
