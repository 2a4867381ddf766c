/**
 * The platform model of sim/domain, small: one pod on a one-host platform (its own engine and
 * PodRegistry), or one job on a one-worker endpoint (its own engine and Serverless running the
 * conformance handler), each on a manual virtual clock that moves only when stepped. The oracle
 * asks these what the model answers and where it goes; the shadow platform keeps one per entity
 * the suite made on the target. One entity per model, so that stepping one (to adopt a state the
 * target was read in) never moves another.
 */
import { Engine } from "../../sim/core/index.ts";
import type { Catalog } from "../../sim/catalog/index.ts";
import { CpuStock, GpuStock } from "../../sim/domain/stock/index.ts";
import { PodRegistry, type PodAction, type PodCreateInput, type PodOutcome, type PodStatus } from "../../sim/domain/pods/index.ts";
import { Serverless, TestPool, type Health, type JobStatus } from "../../sim/domain/serverless/index.ts";

const ACCOUNT = "shadow";
const GPU = "SHADOW GPU";
const DC = "SHADOW-DC";
/** The most events one step toward a state may run: a model that needs more is broken, not slow. */
const MAX_STEPS = 64;

/** One NVIDIA GPU host of one GPU (so a host can be taken), one CPU host, one data center with global networking. */
const CATALOG: Catalog = Object.freeze({
  gpuTypes: [
    {
      id: GPU,
      displayName: "Shadow",
      manufacturer: "Nvidia",
      memoryInGb: 24,
      cudaCores: 1,
      maxGpuCount: 1,
      secureCloud: true,
      communityCloud: true,
      securePrice: 1,
      communityPrice: 1,
      secureSpotPrice: 1,
      communitySpotPrice: 1,
      oneWeekPrice: 1,
      oneMonthPrice: 1,
      threeMonthPrice: 1,
    },
  ],
  dataCenters: [{ id: DC, name: DC, region: "Shadow", location: "Shadow", globalNetwork: true, cudaVersions: ["12.4"], networkVolumeTypes: [], compliance: [] }],
  hosts: [
    { id: "g1", kind: "gpu", dataCenterId: DC, cloud: "SECURE", gpuTypeId: GPU, gpuCount: 1, cudaVersion: "12.4", vcpuCount: 8, memoryInGb: 32 },
    { id: "c1", kind: "cpu", dataCenterId: DC, cloud: "SECURE", cpuFlavorIds: ["cpu"], vcpuCount: 4, memoryInGb: 8 },
  ],
  cpuFlavors: [{ id: "cpu", name: "Shadow", group: "General", ramGbPerVcpu: 2, vcpuCounts: [2], pricePerVcpuHour: 0.1, dataCenterIds: [DC] }],
  accounts: [],
  networkVolumes: [],
  templates: [],
  registries: [],
  endpoints: [],
} as unknown as Catalog);

export type PodKind = "gpu" | "cpu";
/** How a container start ends in this model: always RUNNING, or always ERROR (the two branches of the model's draw). */
export type StartEnd = "RUNNING" | "ERROR";

const podInput = (kind: PodKind): PodCreateInput =>
  kind === "gpu" ? { name: "shadow", image: "shadow", gpu: { id: GPU, count: 1 } } : { name: "shadow", image: "shadow", cpu: { id: "cpu", vcpuCount: 2 } };

/** One pod of the model on its own platform. */
export class PodModel {
  readonly engine: Engine;
  readonly registry: PodRegistry;
  readonly id: string;

  constructor(
    seed: number,
    readonly kind: PodKind,
    readonly startEnd: StartEnd = "RUNNING",
  ) {
    this.engine = new Engine({ seed });
    const gpu = new GpuStock(this.engine, CATALOG, this.engine.rng.fork("stock"), { outsideIntensity: 0 });
    this.registry = new PodRegistry(this.engine, CATALOG, this.engine.rng.fork("pods"), { gpu, cpu: new CpuStock(CATALOG) }, { failureRate: startEnd === "ERROR" ? 1 : 0 });
    const created = this.registry.create(ACCOUNT, podInput(kind));
    if (!created.ok) throw new Error(`the shadow platform could not create its pod: ${created.message}`);
    this.id = created.pod.id;
  }

  get status(): PodStatus | "(gone)" {
    return this.registry.find(this.id)?.status ?? "(gone)";
  }

  /** Runs the model's next event (its own move); false when it has none left. */
  step(): boolean {
    return this.engine.step();
  }

  action(action: PodAction): PodOutcome {
    return this.registry.action(ACCOUNT, this.id, action);
  }

  patch(globalNetworking: boolean): PodOutcome {
    return this.registry.update(ACCOUNT, this.id, { globalNetworking });
  }

  /** Another pod takes this pod's host (what the target's other users may do while it is EXITED). */
  takeHost(): void {
    this.registry.create("another", podInput(this.kind));
  }

  /** The statuses the pod passes through by its own moves from now (its status included), stopping at TERMINATED. */
  ownMoves(): PodStatus[] {
    const seen: PodStatus[] = [];
    for (let i = 0; i < MAX_STEPS; i++) {
      const s = this.status;
      if (s === "(gone)") break;
      if (!seen.includes(s)) seen.push(s);
      if (s === "TERMINATED" || !this.step()) break;
    }
    return seen;
  }

  /** A pod of the model driven to `status` by the model's own operations and moves. */
  static inStatus(status: PodStatus, kind: PodKind, seed: number, startEnd: StartEnd = "RUNNING"): PodModel {
    const m = new PodModel(seed, kind, status === "ERROR" ? "ERROR" : status === "RUNNING" ? "RUNNING" : startEnd);
    if (status === "EXITED") m.action("stop");
    else if (status === "TERMINATED") m.action("terminate");
    else for (let i = 0; i < MAX_STEPS && m.status !== status && m.step(); i++);
    if (m.status !== status) throw new Error(`the shadow platform could not bring a pod to ${status} (it is ${m.status})`);
    return m;
  }
}

/** What a job of the model does once it runs: the conformance handler's echo, its failure, or a sleep past its execution timeout. */
export type JobKind = "echo" | "fail" | "timeout";

const ENDPOINT = "shadow";
const INPUTS: Readonly<Record<JobKind, unknown>> = {
  echo: { shadow: true },
  fail: { op: "fail", message: "shadow" },
  timeout: { op: "sleep", ms: 60_000 },
};

/** One job of the model on an endpoint of its own (one worker, cold start of one second). */
export class JobModel {
  readonly engine: Engine;
  readonly serverless: Serverless;
  readonly id: string;

  constructor(
    seed: number,
    readonly kind: JobKind = "echo",
  ) {
    this.engine = new Engine({ seed });
    const endpoint = {
      id: ENDPOINT,
      accountId: ACCOUNT,
      handler: "conformance",
      gpuTypeIds: [GPU],
      gpuCount: 1,
      workersMin: 0,
      workersMax: 1,
      idleTimeoutMs: 5_000,
      scalerType: "RequestCount" as const,
      scalerValue: 1,
      executionTimeoutMs: 600_000,
      coldStartMs: { mean: 1_000, cv: 0 },
      slug: null,
    };
    this.serverless = new Serverless(this.engine, { accounts: [{ id: ACCOUNT }], endpoints: [endpoint] }, this.engine.rng.fork("serverless"), new TestPool({ [GPU]: 1 }));
    // The echo runs a moment; the sleep outlasts its 5 s execution timeout.
    const input = kind === "echo" ? { op: "sleep", ms: 1_000 } : INPUTS[kind];
    const out = this.serverless.submit({ endpointId: ENDPOINT, accountId: ACCOUNT, input, ...(kind === "timeout" ? { policy: { executionTimeout: 5_000 } } : {}) });
    if (!out.ok) throw new Error(`the shadow platform could not submit its job: ${out.message}`);
    this.id = out.jobId;
  }

  get status(): JobStatus | "(gone)" {
    const out = this.serverless.status(ENDPOINT, ACCOUNT, this.id);
    return out.ok ? out.job.status : "(gone)";
  }

  step(): boolean {
    return this.engine.step();
  }

  /** The status the model's answer names (CANCELLED), or undefined when it refuses. */
  cancel(): string | undefined {
    const out = this.serverless.cancel(ENDPOINT, ACCOUNT, this.id);
    return out.ok ? out.status : undefined;
  }

  /** The status the model's answer names (IN_QUEUE; the job may already run when a worker was idle), or undefined when it refuses. */
  retry(): string | undefined {
    const out = this.serverless.retry(ENDPOINT, ACCOUNT, this.id);
    return out.ok ? out.status : undefined;
  }

  /** The endpoint's health: this one job's counts and its one worker. */
  health(): Health {
    const out = this.serverless.health(ENDPOINT, ACCOUNT);
    if (!out.ok) throw new Error(`the shadow platform has no health: ${out.message}`);
    return out.health;
  }

  /** The statuses the job passes through by its own moves from now (its status included), until it is final. */
  ownMoves(): JobStatus[] {
    const seen: JobStatus[] = [];
    for (let i = 0; i < MAX_STEPS; i++) {
      const s = this.status;
      if (s === "(gone)") break;
      if (!seen.includes(s)) seen.push(s);
      if ((s !== "IN_QUEUE" && s !== "IN_PROGRESS") || !this.step()) break;
    }
    return seen;
  }

  /** Steps until the job is in `status`; false when its own moves pass it by. */
  stepTo(status: string): boolean {
    for (let i = 0; i < MAX_STEPS && this.status !== status; i++) {
      const s = this.status;
      if ((s !== "IN_QUEUE" && s !== "IN_PROGRESS") || !this.step()) break;
    }
    return this.status === status;
  }

  /** A job of the model driven to `status` by the model's own operations and moves. */
  static inStatus(status: JobStatus, seed: number, kind?: JobKind): JobModel {
    const k: JobKind = kind ?? (status === "FAILED" ? "fail" : status === "TIMED_OUT" ? "timeout" : "echo");
    const m = new JobModel(seed, k);
    if (status === "CANCELLED") m.cancel();
    else m.stepTo(status);
    if (m.status !== status) throw new Error(`the shadow platform could not bring a ${k} job to ${status} (it is ${m.status})`);
    return m;
  }
}
