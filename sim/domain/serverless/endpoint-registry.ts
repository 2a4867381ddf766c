/**
 * Endpoints created, changed and deleted: each endpoint gets its own queue, workers and random
 * streams, forked by its id so that no other endpoint's draws move, and its handler through one
 * seam (resolveHandler) for the catalog's endpoints and those an account creates later.
 */
import type { Rng } from "../../core/index.ts";
import type { JobHandler } from "../handlers/index.ts";
import { EndpointState } from "./endpoint-state.ts";
import type { ServerlessEndpointConfig } from "./endpoint-state.ts";
import { IN_PROGRESS, IN_QUEUE } from "./job-status.ts";
import type { ModelCore } from "./model-core.ts";
import { ServerlessConfigError } from "./serverless-config-error.ts";
import type { ExternalExecutor } from "./types.ts";
import { W_RUNNING } from "./worker.ts";

export class EndpointRegistry {
  constructor(
    private readonly m: ModelCore,
    private readonly resolveHandler: (name: string) => JobHandler | undefined,
    private readonly endpointRng: Rng,
  ) {}

  /** The catalog's endpoints, in its order (their indexes), each with its executor if one is given. */
  addCatalogEndpoints(endpoints: readonly ServerlessEndpointConfig[], executors: ReadonlyMap<string, ExternalExecutor> | undefined): void {
    const m = this.m;
    endpoints.forEach((config, index) => {
      const handler: JobHandler | undefined = this.resolveHandler(config.handler);
      if (handler === undefined) throw new ServerlessConfigError(`endpoint ${config.id}: unknown handler ${JSON.stringify(config.handler)}`);
      if (config.workersMin > config.workersMax) {
        throw new ServerlessConfigError(`endpoint ${config.id}: workersMin ${config.workersMin} > workersMax ${config.workersMax}`);
      }
      const own = this.endpointRng.fork(config.id);
      const owner = config.accountId === null ? -1 : m.accountByid.get(config.accountId);
      if (owner === undefined) throw new ServerlessConfigError(`endpoint ${config.id}: unknown account ${config.accountId}`);
      const seedSalt = (own.fork("seeds").next() * 4294967296) >>> 0;
      const e = new EndpointState(index, config, handler, own.fork("cold-start"), seedSalt, owner);
      e.executor = executors?.get(config.id);
      m.endpoints.push(e);
      m.endpointByKey.set(config.id, index);
      if (config.slug !== undefined && config.slug !== null) m.endpointByKey.set(config.slug, index);
    });
  }

  /** Adds an endpoint an account created (see Serverless.addEndpoint). Returns its index. */
  add(config: ServerlessEndpointConfig): number {
    const m = this.m;
    if (m.endpointByKey.has(config.id)) throw new ServerlessConfigError(`endpoint ${config.id} exists already`);
    const handler = this.resolveHandler(config.handler);
    if (handler === undefined) throw new ServerlessConfigError(`endpoint ${config.id}: unknown handler ${JSON.stringify(config.handler)}`);
    const owner = config.accountId === null ? -1 : m.accountByid.get(config.accountId);
    if (owner === undefined) throw new ServerlessConfigError(`endpoint ${config.id}: unknown account ${config.accountId}`);
    const own = this.endpointRng.fork(config.id);
    const seedSalt = (own.fork("seeds").next() * 4294967296) >>> 0;
    const index = m.endpoints.length;
    const e = new EndpointState(index, config, handler, own.fork("cold-start"), seedSalt, owner);
    m.endpoints.push(e);
    m.endpointByKey.set(config.id, index);
    for (let i = 0; i < config.workersMin; i++) m.scaling.addWorker(e);
    return index;
  }

  /** Applies a changed configuration to a live endpoint (see Serverless.reconfigureEndpoint). */
  reconfigure(id: string, config: ServerlessEndpointConfig): boolean {
    const m = this.m;
    const index = m.endpointByKey.get(id);
    if (index === undefined || config.id !== id) return false;
    const e = m.endpoints[index];
    const scaling = m.scaling;
    e.reconfigure(config);
    for (let i = e.workers.length - 1; i >= 0 && e.workers.length > config.workersMax; i--) {
      const w = m.workers[e.workers[i]];
      if (w.state !== W_RUNNING) scaling.stopWorker(e, w);
    }
    while (e.workers.length < Math.min(config.workersMin, config.workersMax)) scaling.addWorker(e);
    if (e.workers.length > config.workersMin) for (const i of e.idle) scaling.scheduleIdleCheck(e, m.workers[i]);
    scaling.scale(e, m.engine.now);
    return true;
  }

  /** Deletes an endpoint, cancelling its jobs (see Serverless.removeEndpoint). */
  remove(id: string): number | undefined {
    const m = this.m;
    const index = m.endpointByKey.get(id);
    if (index === undefined) return undefined;
    const e = m.endpoints[index];
    e.deleted = true;
    e.reconfigure({ ...e.config, workersMin: 0, workersMax: 0 });
    if (e.scaleHandle >= 0) {
      m.engine.cancel(e.scaleHandle);
      e.scaleHandle = -1;
    }
    const J = m.jobs;
    const queued: number[] = [];
    const running: number[] = [];
    for (let slot = 0; slot < J.used; slot++) {
      if (J.endpoint[slot] !== index) continue;
      if (J.state[slot] === IN_QUEUE) queued.push(slot);
      else if (J.state[slot] === IN_PROGRESS) running.push(slot);
    }
    let cancelled = 0;
    for (const slot of [...queued, ...running]) if (m.lifecycle.cancel(slot)) cancelled++;
    for (const w of [...e.workers]) m.scaling.stopWorker(e, m.workers[w]);
    m.endpointByKey.delete(e.config.id);
    if (e.config.slug !== undefined && e.config.slug !== null) m.endpointByKey.delete(e.config.slug);
    return cancelled;
  }
}
