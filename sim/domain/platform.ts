/**
 * The whole platform as one seeded model: one engine, one catalog, and the subsystems that share
 * them (GPU and CPU stock, pods, serverless endpoints, rate limits, API keys). Everything is
 * derived from the one seed by label, so adding a subsystem never shifts another's draws.
 * sim/api operates on a Platform; the emulator, the conformance oracle and capacity planning
 * each build one.
 */
import { Engine, type Micros } from "../core/index.ts";
import type { Catalog } from "../catalog/index.ts";
import { GpuStock, CpuStock, type GpuStockOptions } from "./stock/index.ts";
import { PodRegistry, type PodOptions } from "./pods/index.ts";
import { Serverless, type ServerlessOptions } from "./serverless/index.ts";
import { RateLimiter, type RateWindowMode } from "./ratelimit/index.ts";
import { KeyDirectory } from "./accounts/index.ts";
import { DEFAULT_EPOCH_MS } from "./iso-time.ts";
import { Resources } from "./resources/index.ts";
import { workerPool } from "./worker-pool.ts";

export interface PlatformOptions {
  readonly seed: number;
  readonly catalog: Catalog;
  /** Wall-clock instant (ms since 1970) that virtual time 0 stands for; dates in responses derive from it. */
  readonly epochMs?: number;
  readonly stock?: GpuStockOptions;
  readonly pods?: PodOptions;
  readonly serverless?: ServerlessOptions;
  /**
   * The handler (by name, resolved like the catalog's through serverless.resolveHandler) that
   * endpoints created through the API run; default "conformance". The one seam for attaching a
   * user's handler to created endpoints.
   */
  readonly createdEndpointHandler?: string;
  /** Ends a run that would execute more events than this (a runaway model), with a typed error. */
  readonly stepCap?: number;
  /** How the rate-limit windows count (default "fixed-aligned"; the `rateWindows` convention). */
  readonly rateWindows?: RateWindowMode;
}

export class Platform {
  readonly seed: number;
  readonly epochMs: number;
  readonly engine: Engine;
  readonly gpuStock: GpuStock;
  readonly cpuStock: CpuStock;
  readonly pods: PodRegistry;
  readonly serverless: Serverless;
  readonly rateLimits: RateLimiter;
  readonly keys: KeyDirectory;
  /** Templates, network volumes, registry credentials and endpoint records, as accounts change them. */
  readonly resources: Resources;

  constructor(options: PlatformOptions) {
    this.seed = options.seed;
    this.epochMs = options.epochMs ?? DEFAULT_EPOCH_MS;
    this.engine = new Engine({ seed: options.seed, stepCap: options.stepCap });
    const rng = this.engine.rng;
    this.resources = new Resources(options.catalog, rng.fork("resources"), options.createdEndpointHandler);
    this.gpuStock = new GpuStock(this.engine, this.catalog, rng.fork("stock"), options.stock);
    this.cpuStock = new CpuStock(this.catalog);
    // Volumes created after start are mountable: the registry asks the live resources.
    const volumeDataCenter = (volumeId: string, accountId: string): string | undefined => {
      const v = this.resources.get("networkVolumes", volumeId);
      return v !== undefined && v.accountId === accountId ? v.dataCenterId : undefined;
    };
    this.pods = new PodRegistry(this.engine, this.catalog, rng.fork("pods"), { gpu: this.gpuStock, cpu: this.cpuStock, volumeDataCenter }, options.pods);
    this.serverless = new Serverless(this.engine, this.catalog, rng.fork("serverless"), workerPool(this.gpuStock, this.cpuStock), options.serverless);
    this.rateLimits = new RateLimiter(this.catalog.accounts, { windows: options.rateWindows ?? "fixed-aligned" });
    this.keys = new KeyDirectory(this.catalog.accounts);
  }

  /** The catalog with the current templates, network volumes, registries and endpoints. */
  get catalog(): Catalog {
    return this.resources.catalog;
  }

  get now(): Micros {
    return this.engine.now;
  }

  /** Runs the model up to `time`; a time in the past is ignored (time never moves backwards). */
  advanceTo(time: Micros): void {
    if (time > this.engine.now) this.engine.runUntil(time);
  }

  /** The event-log hash: equal for equal seeds and inputs. */
  hash(): string {
    return this.engine.log.hash();
  }
}
