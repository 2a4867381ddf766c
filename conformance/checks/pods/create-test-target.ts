/**
 * Test-only: the embedded emulator, optionally broken by a wrapper around its backend that
 * rewrites a request before the model sees it or a response after, so the tests can show that
 * the suite names the right rule. The target stays up after `conform` returns (its close is a
 * no-op there), so a test can run a failure's curl script against it; `stop()` ends it.
 */
import type { ApiOutcome, ApiRequest, ApiResponse } from "../../../sim/api/types.ts";
import type { Micros } from "../../../sim/core/index.ts";
import type { BackendApiKey, BackendRoute, EmulatorBackend, WebhookDelivery } from "../../../sim/http/backend.ts";
import { startEmulator } from "../../../sim/http/index.ts";
import { PlatformBackend } from "../../../sim/http/platform-backend.ts";
import type { Catalog } from "../../../sim/catalog/index.ts";
import type { EmbeddedTarget } from "../../conform.ts";
import { embeddedCatalog } from "../../embedded.ts";

/** Rewrites one exchange: may change the request, then the response `next` gives. */
export type Breakage = (request: ApiRequest, next: (request: ApiRequest) => ApiOutcome) => ApiOutcome;

/** Every call goes to the real backend; `handle` goes through the breakage first. */
class BrokenBackend implements EmulatorBackend {
  constructor(
    private readonly inner: EmulatorBackend,
    private readonly breakage: Breakage,
  ) {}
  now(): Micros {
    return this.inner.now();
  }
  advanceTo(time: Micros): void {
    this.inner.advanceTo(time);
  }
  nextEventTime(): Micros | undefined {
    return this.inner.nextEventTime();
  }
  handle(request: ApiRequest): ApiOutcome {
    return this.breakage(request, (r) => this.inner.handle(r));
  }
  onJobFinal(endpointId: string, jobId: string, listener: () => void): () => void {
    return this.inner.onJobFinal(endpointId, jobId, listener);
  }
  drainWebhooks(): WebhookDelivery[] {
    return this.inner.drainWebhooks();
  }
  webhookResult(delivery: WebhookDelivery, ok: boolean): void {
    this.inner.webhookResult(delivery, ok);
  }
  reset(seed: number): void {
    this.inner.reset(seed);
  }
  apiKeys(): BackendApiKey[] {
    return this.inner.apiKeys();
  }
  routes(): BackendRoute[] {
    return this.inner.routes();
  }
}

/** A breakage that only touches responses: `edit` gets the request and the response. */
export function editResponse(edit: (request: ApiRequest, response: ApiResponse) => ApiResponse): Breakage {
  return (request, next) => {
    const out = next(request);
    return out.kind === "response" ? { kind: "response", response: edit(request, out.response) } : out;
  };
}

export const isCreatePod = (r: ApiRequest): boolean => r.method === "POST" && r.path === "/v2/pods";

function keyOf(catalog: Catalog, accountId: string, access: "full" | "read-only"): string | undefined {
  return catalog.accounts.find((a) => a.id === accountId)?.keys.find((k) => k.access === access)?.key;
}

export interface TestTarget {
  /** For conform's deps.startEmbedded. */
  readonly start: () => Promise<EmbeddedTarget>;
  /** The running target (after start). */
  target(): EmbeddedTarget;
  stop(): Promise<void>;
}

export function testTarget(breakage?: Breakage, seed = 1): TestTarget {
  let handle: Awaited<ReturnType<typeof startEmulator>> | undefined;
  let embedded: EmbeddedTarget | undefined;
  return {
    start: async () => {
      const catalog = embeddedCatalog();
      handle = await startEmulator({
        host: "127.0.0.1",
        port: 0,
        seed,
        clock: "manual",
        control: true,
        createBackend: (o) => {
          const real = new PlatformBackend({ ...o, catalog });
          return breakage ? new BrokenBackend(real, breakage) : real;
        },
      });
      embedded = {
        rest: handle.baseUrl,
        serverless: handle.serverlessUrl,
        keys: { api: keyOf(catalog, "acct-alpha", "full"), restricted: keyOf(catalog, "acct-alpha", "read-only"), other: keyOf(catalog, "acct-beta", "full") },
        endpoint: "conformance",
        controlApi: true,
        close: async () => {},
      };
      return embedded;
    },
    target: () => {
      if (!embedded) throw new Error("the test target was not started");
      return embedded;
    },
    stop: async () => {
      await handle?.close();
    },
  };
}

/** The rule globs of this area's create, error, catalog and versioning checks. */
export const AREA_GLOBS = ["pods.create.*", "errors.*", "catalog.*", "versioning.*"] as const;
