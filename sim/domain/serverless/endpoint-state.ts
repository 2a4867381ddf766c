/**
 * What the model keeps per endpoint: its configuration, handler, random streams, its two queues
 * (normal, then low priority), job counters by state (the health numbers, kept exact
 * incrementally) and its workers.
 */
import type { Rng } from "../../core/index.ts";
import type { CpuInstanceSize, GpuRequest } from "../gpu-pool.ts";
import type { JobHandler } from "../handlers/index.ts";
import { STATE_COUNT } from "./job-status.ts";
import { SlotQueue } from "./slot-queue.ts";
import type { ExternalExecutor } from "./types.ts";
import { WORKER_STATE_COUNT } from "./worker.ts";

/** The catalog endpoint fields the model reads (the catalog's Endpoint satisfies it). */
export interface ServerlessEndpointConfig {
  readonly id: string;
  readonly accountId: string | null;
  readonly handler: string;
  readonly gpuTypeIds: readonly string[];
  readonly gpuCount: number;
  readonly workersMin: number;
  readonly workersMax: number;
  readonly idleTimeoutMs: number;
  readonly scalerType: "QueueDelay" | "RequestCount";
  readonly scalerValue: number;
  readonly executionTimeoutMs: number;
  readonly coldStartMs: { readonly mean: number; readonly cv: number };
  readonly slug?: string | null;
  /** A CPU endpoint's instance sizes (its workers take CPU stock, no GPUs); absent or empty: a GPU endpoint. */
  readonly cpu?: readonly CpuInstanceSize[];
}

function requestOf(config: ServerlessEndpointConfig): GpuRequest {
  return Object.freeze(config.cpu !== undefined && config.cpu.length > 0 ? { gpuTypeIds: [], count: 0, cpu: config.cpu } : { gpuTypeIds: config.gpuTypeIds, count: config.gpuCount });
}

export class EndpointState {
  /** Per-endpoint job sequence; handler seeds derive from it. */
  nextSeq = 0;
  readonly queue = new SlotQueue();
  readonly lowQueue = new SlotQueue();
  /** Live entries of queue and lowQueue (the rings also hold stale ones). */
  queued = 0;
  lowQueued = 0;
  /** Held jobs by state code (FREE unused). */
  readonly counts = new Int32Array(STATE_COUNT);
  /** Held jobs that were retried at least once. */
  retried = 0;
  /** Workers not stopped, in creation order. */
  readonly workers: number[] = [];
  /** Idle workers; the most recently idle is taken first, so surplus workers age out. */
  readonly idle: number[] = [];
  readonly workerCounts = new Int32Array(WORKER_STATE_COUNT);
  /** The pending QueueDelay scale check, or -1. */
  scaleHandle = -1;
  /** Set when the endpoint is deleted: it takes no jobs and keeps no workers (see Serverless.removeEndpoint). */
  deleted = false;
  gpuRequest: GpuRequest;
  /** Owner account index, or -1 for a shared endpoint. */
  readonly ownerIndex: number;
  timeoutUs: number;
  idleTimeoutUs: number;
  /** Runs this endpoint's jobs for real instead of the handler's plans (see ExternalExecutor). */
  executor: ExternalExecutor | undefined = undefined;

  constructor(
    readonly index: number,
    public config: ServerlessEndpointConfig,
    readonly handler: JobHandler,
    readonly coldStartRng: Rng,
    readonly seedSalt: number,
    ownerIndex: number,
  ) {
    this.gpuRequest = requestOf(config);
    this.ownerIndex = ownerIndex;
    this.timeoutUs = config.executionTimeoutMs * 1000;
    this.idleTimeoutUs = config.idleTimeoutMs * 1000;
  }

  /** A new configuration for a live endpoint (an account updated it); jobs already started keep their timeout. */
  reconfigure(config: ServerlessEndpointConfig): void {
    this.config = config;
    this.gpuRequest = requestOf(config);
    this.timeoutUs = config.executionTimeoutMs * 1000;
    this.idleTimeoutUs = config.idleTimeoutMs * 1000;
  }
}
