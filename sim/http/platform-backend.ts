/**
 * The emulator's real backend: the seeded platform model answered through sim/api. It adds only
 * what the transport contract needs around the model: subscriptions for waiting requests, and
 * webhook deliveries with bounded retries scheduled in virtual time.
 */
import type { Micros } from "../core/index.ts";
import { loadCatalog, type Catalog } from "../catalog/index.ts";
import { Platform, type PlatformOptions } from "../domain/platform.ts";
import type { ExternalExecutor, FinalListener } from "../domain/serverless/index.ts";
import { PlatformApi } from "../api/platform-api.ts";
import { operations } from "../api/operations.ts";
import { routes } from "../api/routes.ts";
import { webhookBody } from "../api/ops/jobs/webhook-body.ts";
import { type ApiOutcome, type ApiRequest, respond } from "../api/types.ts";
import type { HandlerRuntime } from "../handler/index.ts";
import type { BackendApiKey, BackendOptions, BackendRoute, BackendTransport, EmulatorBackend, WebhookDelivery } from "./backend.ts";
import { withHandlerEndpoints } from "./handler-endpoints.ts";
import { type ApplyChange, HandlerExecutor } from "./handler-executor.ts";
import { ARTIFACT_ROUTE, isArtifactPath, receiveArtifact } from "./artifact-uploads.ts";
import { WORKER_ROUTES, WorkerGateway, type WorkerGatewayOptions } from "./worker-gateway.ts";
import { type SplitCapture, capture, captureApart, captureDifference, restore } from "./state/model-graph.ts";
import { type SaveResult, saveState } from "./state/save-state.ts";

/** Attempts per webhook in all, and the virtual delay before each retry (doubling). */
export const WEBHOOK_ATTEMPTS = 3;
export const WEBHOOK_RETRY_BASE_US = 2_000_000;
/** Retries waiting at once; past this the oldest is dropped (a limit on everything). */
const MAX_PENDING_RETRIES = 10_000;
/** Waiting requests whose job owner is remembered; the transport bounds waits far below this. */
const MAX_OWNERS = 100_000;

export interface PlatformBackendOptions extends BackendOptions {
  /** A catalog built in code; wins over `fixtures`. */
  readonly catalog?: Catalog;
  /** Model options beyond seed and catalog (stock, pods, serverless). */
  readonly model?: Omit<PlatformOptions, "seed" | "catalog">;
  /** Endpoints whose jobs run a user's handler for real (`cpsim serve --handler`); new ids are added to the catalog. */
  readonly handlers?: readonly { readonly endpointId: string; readonly runtime: HandlerRuntime }[];
  /** Endpoints whose jobs are taken by worker processes outside the emulator (`cpsim serve --worker-endpoint`); new ids are added to the catalog. */
  readonly workerEndpoints?: readonly string[];
  /** Poll wait and silence limit of those workers. */
  readonly workerGateway?: WorkerGatewayOptions;
}

interface PendingRetry {
  readonly due: Micros;
  readonly delivery: WebhookDelivery;
}

export class PlatformBackend implements EmulatorBackend {
  private readonly catalog: Catalog;
  private platform!: Platform;
  private api!: PlatformApi;
  private readonly owners = new Map<string, string>();
  private retries: PendingRetry[] = [];
  private readonly executors = new Map<string, HandlerExecutor>();
  /** The worker interface of `--worker-endpoint` endpoints, when there are any. */
  readonly workers: WorkerGateway | undefined;
  /** Without a transport (in-process use), changes from real handlers apply at the model's current time. */
  private applyChange: ApplyChange = (fn) => fn();

  constructor(private readonly options: PlatformBackendOptions) {
    const handlers = options.handlers ?? [];
    const workerEndpoints = options.workerEndpoints ?? [];
    this.catalog = withHandlerEndpoints(options.catalog ?? loadCatalog(options.fixtures), [
      ...handlers.map((h) => ({ endpointId: h.endpointId, file: h.runtime.file })),
      ...workerEndpoints.map((endpointId) => ({ endpointId, file: "outside workers" })),
    ]);
    for (const h of handlers) {
      this.executors.set(h.endpointId, new HandlerExecutor(h.endpointId, h.runtime, () => this.platform.serverless, () => this.applyChange));
    }
    this.workers =
      workerEndpoints.length === 0
        ? undefined
        : new WorkerGateway(
            workerEndpoints,
            () => this.apiKeys(),
            (id) => this.catalog.endpoints.find((e) => e.id === id)?.accountId,
            () => this.platform.serverless,
            () => this.applyChange,
            options.workerGateway,
          );
    this.build(options.seed);
  }

  attachTransport(transport: BackendTransport): void {
    this.applyChange = (fn) => transport.change(fn);
    this.workers?.startWatch();
  }

  async close(): Promise<void> {
    for (const executor of this.executors.values()) executor.reset();
    this.workers?.close();
  }

  /** The model behind the emulator, for in-process users (tests, the conformance oracle). */
  get model(): Platform {
    return this.platform;
  }

  private build(seed: number): void {
    for (const executor of this.executors.values()) executor.reset();
    this.workers?.reset();
    const model = this.options.model;
    const memory = this.options.memory;
    const base = memory === undefined ? model?.serverless : { ...model?.serverless, ...stripUndefined(memory) };
    const executors = new Map<string, ExternalExecutor>([...this.executors, ...(this.workers?.executors ?? [])]);
    const serverless = executors.size === 0 ? base : { ...base, executors };
    this.platform = new Platform({ ...model, ...(serverless ? { serverless } : {}), seed, catalog: this.catalog });
    this.api = new PlatformApi(this.platform, operations);
    this.owners.clear();
    this.retries = [];
  }

  now(): Micros {
    return this.platform.now;
  }

  advanceTo(time: Micros): void {
    this.platform.advanceTo(time);
    // A job the model timed out may be due on a worker's stop poll.
    this.workers?.poke();
  }

  nextEventTime(): Micros | undefined {
    const model = this.platform.engine.nextTime();
    const retry = this.retries.length > 0 ? this.retries[0].due : undefined;
    if (model === undefined) return retry;
    return retry === undefined ? model : Math.min(model, retry);
  }

  handle(request: ApiRequest): ApiOutcome {
    const workers = this.workers;
    if (workers !== undefined && workers.owns(request.path)) return workers.handle(request, this.platform.now);
    if (isArtifactPath(request.path)) return respond(receiveArtifact(this.platform, request));
    const outcome = this.api.handle(request);
    // A run or retry may have queued a job that a worker's take poll is waiting for.
    workers?.poke();
    if (outcome.kind === "wait") {
      if (this.owners.size >= MAX_OWNERS) this.owners.delete(this.owners.keys().next().value as string);
      this.owners.set(ownerKey(outcome.endpointId, outcome.jobId), outcome.accountId);
    }
    return outcome;
  }

  onJobFinal(endpointId: string, jobId: string, listener: () => void): () => void {
    if (this.workers?.isWaitKey(jobId)) return this.workers.subscribe(endpointId, jobId, listener);
    const key = ownerKey(endpointId, jobId);
    const accountId = this.owners.get(key);
    if (accountId === undefined) {
      listener();
      return () => {};
    }
    const serverless = this.platform.serverless;
    const onFinal: FinalListener = () => {
      this.owners.delete(key);
      listener();
    };
    const subscribed = serverless.onFinal(endpointId, accountId, jobId, onFinal);
    if (!subscribed.ok) {
      // Already final, expired or gone: the waiting request is answered now with what is there.
      this.owners.delete(key);
      listener();
      return () => {};
    }
    return () => {
      this.owners.delete(key);
      serverless.offFinal(jobId, onFinal);
    };
  }

  drainWebhooks(): WebhookDelivery[] {
    const now = this.platform.now;
    const out: WebhookDelivery[] = [];
    while (this.retries.length > 0 && this.retries[0].due <= now) out.push(this.retries.shift()!.delivery);
    for (const entry of this.platform.serverless.drainWebhooks()) {
      out.push({ url: entry.url, body: webhookBody(entry.job), attempt: 1 });
    }
    return out;
  }

  webhookResult(delivery: WebhookDelivery, ok: boolean): void {
    if (ok || delivery.attempt >= WEBHOOK_ATTEMPTS) return;
    const due = this.platform.now + WEBHOOK_RETRY_BASE_US * 2 ** (delivery.attempt - 1);
    if (this.retries.length >= MAX_PENDING_RETRIES) this.retries.shift();
    const retry = { due, delivery: { ...delivery, attempt: delivery.attempt + 1 } };
    // Kept sorted by due time; retries are few, so an insertion is cheap.
    let i = this.retries.length;
    while (i > 0 && this.retries[i - 1].due > due) i--;
    this.retries.splice(i, 0, retry);
  }

  reset(seed: number): void {
    this.build(seed);
  }

  /** What a snapshot holds: the model, its API (caches and limits) and the webhook retries; waiting requests are not kept. */
  private stateRoot(): { platform: Platform; api: PlatformApi; retries: PendingRetry[] } {
    return { platform: this.platform, api: this.api, retries: this.retries };
  }

  /** Whether jobs are held in processes a snapshot cannot see (real handlers, outside workers). */
  private get heldOutside(): boolean {
    return this.executors.size > 0 || this.workers !== undefined;
  }

  captureState(): Buffer | undefined {
    return this.heldOutside ? undefined : capture(this.stateRoot());
  }

  captureStateApart(): SplitCapture | undefined {
    return this.heldOutside ? undefined : captureApart(this.stateRoot());
  }

  restoreState(bytes: Buffer): void {
    const root = this.stateRoot();
    restore(root, bytes);
    this.platform = root.platform;
    this.api = root.api;
    this.retries = root.retries;
    this.owners.clear();
  }

  saveState(split: SplitCapture, seed: number, dir: string): Promise<SaveResult> {
    return saveState({ ...this.options, catalog: this.catalog }, split, seed, dir);
  }

  apiKeys(): BackendApiKey[] {
    return this.catalog.accounts.flatMap((a) => a.keys.map((k) => ({ key: k.key, account: a.id, access: k.access })));
  }

  routes(): BackendRoute[] {
    const own = routes.map((r): BackendRoute => ({ method: r.method, pattern: r.pattern, bodyLimit: r.bodyLimit }));
    own.push(ARTIFACT_ROUTE);
    return this.workers === undefined ? own : [...own, ...WORKER_ROUTES];
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

function ownerKey(endpointId: string, jobId: string): string {
  return `${endpointId}\n${jobId}`;
}

/**
 * Restores a capture into a backend built with `options` (no handlers, no outside workers) fresh
 * from `seed`, captures it again and says where the two differ; undefined when they agree.
 */
export function checkCapture(options: PlatformBackendOptions, bytes: Buffer, seed: number): string | undefined {
  // A catalog of its own: restoring writes into the objects it pairs, and the given one may be a live model's.
  const sibling = new PlatformBackend({ ...options, seed, ...(options.catalog !== undefined ? { catalog: structuredClone(options.catalog) } : {}) });
  sibling.restoreState(bytes);
  const again = sibling.captureState();
  return again === undefined ? "the state cannot be captured" : captureDifference(bytes, again);
}
