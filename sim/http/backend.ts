/**
 * The one contract between the HTTP transport (sim/http) and whatever answers requests. The
 * transport owns sockets, bodies, limits, the wall clock and timers; the backend owns the model
 * and every platform rule. sim/api implements it over the real model; `test-backend.ts` is a
 * small stand-in used by the transport's own tests.
 */
import type { Micros } from "../core/index.ts";
import type { ApiOutcome, ApiRequest, HttpMethod } from "../api/types.ts";
import type { SaveResult } from "./state/save-state.ts";
import type { SplitCapture } from "./state/model-graph.ts";

/** One webhook POST that fell due: the transport sends `body` as JSON to `url`, exactly. */
export interface WebhookDelivery {
  readonly url: string;
  readonly body: unknown;
  /** 1 for the first try; the backend counts retries. */
  readonly attempt: number;
}

/** A route the backend serves, for 404 vs 405 (with `Allow`) and per-route body limits. */
export interface BackendRoute {
  readonly method: HttpMethod;
  /** Path pattern with `:param` segments, e.g. `/v2/pods/:podId`; `:endpointId` never matches a reserved word. */
  readonly pattern: string;
  /** Largest request body in bytes; the transport's default (1 MiB) when absent. */
  readonly bodyLimit?: number;
  /** The body is read as JSON whatever its Content-Type says (the official worker posts JSON as a form). */
  readonly anyContentType?: boolean;
  /**
   * The body is not JSON and is not kept: the transport streams it through SHA-256 (within
   * bodyLimit, whatever its Content-Type) and hands the backend `{bytes, sha256}` as the body.
   */
  readonly rawBody?: boolean;
}

export interface BackendApiKey {
  readonly key: string;
  readonly account: string;
  readonly access: "full" | "read-only" | "exempt";
}

export interface EmulatorBackend {
  /**
   * True when the backend answers requests no route serves (a point of the open-choice space that
   * checks keys before routes): the transport then passes an unknown path or method (but OPTIONS)
   * on to it rather than answering 404/405 itself.
   */
  readonly answersUnrouted?: boolean;
  /** The model's virtual time. */
  now(): Micros;
  /**
   * Runs the model up to `time` inclusive (every event at or before `time` is processed); never
   * backwards: a time at or before now() does nothing. onJobFinal listeners fire from inside.
   */
  advanceTo(time: Micros): void;
  /** The earliest pending model event, for real-clock scheduling; undefined when none. */
  nextEventTime(): Micros | undefined;
  /**
   * Answers one request at the current model time, /graphql and rate-limit headers included.
   * Throwing is a bug in the backend: the transport answers 500 and keeps serving.
   */
  handle(request: ApiRequest): ApiOutcome;
  /**
   * Calls `listener` once, synchronously, when the job reaches a final state (COMPLETED, FAILED,
   * CANCELLED, TIMED_OUT), from inside advanceTo or handle. Returns the unsubscribe function.
   */
  onJobFinal(endpointId: string, jobId: string, listener: () => void): () => void;
  /** The webhook deliveries that fell due up to now(); each is returned once. */
  drainWebhooks(): WebhookDelivery[];
  /** Outcome of one delivery, so the model can schedule its bounded retries. */
  webhookResult(delivery: WebhookDelivery, ok: boolean): void;
  /** Forgets everything and starts again from the fixtures with `seed`; time goes back to its start. */
  reset(seed: number): void;
  apiKeys(): BackendApiKey[];
  routes(): BackendRoute[];
  /**
   * Optional: for backends whose model also changes outside requests (real handlers finishing,
   * `cpsim serve --handler`). The transport calls it once; the backend runs such changes through
   * `transport.change`, which first brings the model to the wall clock's time, then answers the
   * waits and re-arms the timer.
   */
  attachTransport?(transport: BackendTransport): void;
  /**
   * Optional, for `--state` snapshots (state/model-graph.ts): the model's whole state, its long
   * strings apart (copied later, a few at a time), or undefined when this backend's state cannot
   * be kept that way (real handlers, outside workers).
   */
  captureStateApart?(): SplitCapture | undefined;
  /** Optional: brings this backend, fresh from the seed the bytes were captured under, to their state. Throws GraphError. */
  restoreState?(bytes: Buffer): void;
  /**
   * Optional, off the event loop (but for copying the long strings, a few each turn): restores
   * the capture into a second backend fresh from `seed` and captures it again; only when the two
   * captures agree are its bytes written as a snapshot file in `dir` (state/state-snapshot.ts).
   * A snapshot is trusted only then.
   */
  saveState?(capture: SplitCapture, seed: number, dir: string): Promise<SaveResult>;
  /** Optional: called by the transport's close(); stops what the backend runs outside requests. */
  close?(): Promise<void>;
}

export interface BackendTransport {
  change(fn: () => void): void;
}

/** What a backend factory is given: the emulator's options that concern the model. */
export interface BackendOptions {
  readonly seed: number;
  /** A fixtures directory; the built-in fixtures when absent. */
  readonly fixtures?: string;
  /** The memory budget of job data (the model's defaults when absent). */
  readonly memory?: MemoryBudget;
}

/** Bounds on the job data the model holds: see `cpsim serve --max-output-mb / --results-budget-mb`. */
export interface MemoryBudget {
  /** Largest output kept for one job, in bytes; a larger one fails its job. */
  readonly maxOutputBytes?: number;
  /** Bytes of job inputs and outputs (of 4 KiB and more) held at once. */
  readonly resultsBudgetBytes?: number;
}

export type BackendFactory = (options: BackendOptions) => EmulatorBackend | Promise<EmulatorBackend>;
