/**
 * The pod registry: every account's pods, their lifecycle over virtual time, and the operations
 * of choices.md (create, actions, update).
 *
 * Lifecycle. create places the pod (scheduler), takes its GPUs or vCPUs on that host at once,
 * and answers PROVISIONING; after a provisioning delay it is STARTING, and after a starting delay
 * RUNNING, or ERROR with probability failureRate. stop releases the host's GPUs but keeps the pod
 * tied to the host; start takes them again on that same host, or fails (409) when they were taken
 * meanwhile, and goes to STARTING; restart (and a container change by update) goes back to
 * STARTING keeping the GPUs; ERROR keeps the GPUs too, and start retries the container. terminate
 * releases everything; the pod stays visible as TERMINATED for terminatedRetention, then is gone.
 *
 * Randomness. Ids come from one stream ("ids"); each pod then draws its seed, delays and failures
 * from its own stream forked by its id, so one pod's actions never shift another pod's draws.
 * Reads (get, list, the views) draw nothing.
 */
import type { Engine, EventKind, Micros, Rng } from "../../core/index.ts";
import type { Catalog, CpuFlavor, GpuType } from "../../catalog/index.ts";
import { POD_ID_LENGTH, shortId, uniqueId } from "../ids.ts";
import { catalogIndex, place, type PlacementRequest } from "../scheduler/index.ts";
import type { CpuStock, GpuStock } from "../stock/index.ts";
import { machineIdOf, podHostIdOf } from "./machine.ts";
import { HOURS_PER_MONTH, resolvePodOptions, type DelayDistribution, type PodOptions, type ResolvedPodOptions } from "./pod-options.ts";
import type { PodCreateInput, PodUpdateInput } from "./pod-input.ts";
import { HOST_FULL_CPU_MESSAGE, HOST_FULL_GPU_MESSAGE, refuse, type PodOutcome } from "./pod-outcome.ts";
import type { MutablePod, PodMounts, PodRecord } from "./pod-record.ts";
import { POD_STATUSES, isActionAllowed, type PodAction, type PodStatus } from "./pod-status.ts";
import { STATUS_VERBS } from "./status-text.ts";
import { checkMountUpdate, applyMountUpdate } from "./mount-update.ts";

export interface PodDependencies {
  readonly gpu: GpuStock;
  readonly cpu: CpuStock;
  /**
   * The data center of an account's network volume, or undefined when the account has no such
   * volume. Default: the catalog's network volumes (a platform that creates volumes at run time
   * passes its own lookup).
   */
  readonly volumeDataCenter?: (volumeId: string, accountId: string) => string | undefined;
}

export type StatusListener = (pod: PodRecord, from: PodStatus | null, now: Micros) => void;

export interface ActionOptions {
  /** start of an EXITED pod only (GraphQL podResume's gpuCount): resume with this many GPUs on the same host. */
  readonly gpuCount?: number;
}

const UINT32 = 4294967296;

export class PodRegistry {
  readonly options: ResolvedPodOptions;
  private readonly engine: Engine;
  private readonly catalog: Catalog;
  private readonly gpu: GpuStock;
  private readonly cpu: CpuStock;
  private readonly volumeDataCenter: (volumeId: string, accountId: string) => string | undefined;
  private readonly ids: Rng;
  private readonly podStreams: Rng;
  private readonly slots: Array<MutablePod | undefined> = [];
  private readonly freeSlots: number[] = [];
  private readonly byId = new Map<string, number>();
  /** Per account, its pods' slots in creation order (a Set keeps insertion order). */
  private readonly byAccount = new Map<string, Set<number>>();
  private readonly listeners: StatusListener[] = [];
  private readonly advanceKind: EventKind;
  private readonly expireKind: EventKind;
  private addressCounter = 0;

  constructor(engine: Engine, catalog: Catalog, rng: Rng, deps: PodDependencies, options: PodOptions = {}) {
    this.options = resolvePodOptions(options);
    this.engine = engine;
    this.catalog = catalog;
    this.gpu = deps.gpu;
    this.cpu = deps.cpu;
    this.volumeDataCenter =
      deps.volumeDataCenter ??
      ((volumeId, accountId) => catalog.networkVolumes.find((v) => v.id === volumeId && v.accountId === accountId)?.dataCenterId);
    this.ids = rng.fork("ids");
    this.podStreams = rng.fork("pods");
    this.advanceKind = engine.defineKind("pods.advance", (slot, now) => this.advance(slot, now));
    this.expireKind = engine.defineKind("pods.expire", (slot) => this.drop(slot));
  }

  // ---- reads (no draws, no events) ----

  /** The account's pod, or undefined (unknown, another account's, or dropped after retention). */
  get(accountId: string, podId: string): PodRecord | undefined {
    const pod = this.find(podId);
    return pod && pod.accountId === accountId ? pod : undefined;
  }

  /** A pod by id whatever its account (for the platform and invariant checkers). */
  find(podId: string): PodRecord | undefined {
    const slot = this.byId.get(podId);
    return slot === undefined ? undefined : this.slots[slot];
  }

  /** The account's pods in creation order, TERMINATED ones included until they are dropped. */
  list(accountId: string): PodRecord[] {
    const slots = this.byAccount.get(accountId);
    return slots ? [...slots].map((s) => this.slots[s]!) : [];
  }

  /** Every pod, in slot order. */
  all(): PodRecord[] {
    return this.slots.filter((p): p is MutablePod => p !== undefined);
  }

  get size(): number {
    return this.byId.size;
  }

  /** Called after every status change (create included, with from = null), inside the call or event that made it. */
  onStatusChange(listener: StatusListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  // ---- create ----

  create(accountId: string, input: PodCreateInput): PodOutcome {
    const now = this.engine.now;
    const accountPods = this.byAccount.get(accountId)?.size ?? 0;
    if (accountPods >= this.options.maxPodsPerAccount) {
      return refuse("pod-limit", `account ${accountId} already has ${accountPods} pods (limit ${this.options.maxPodsPerAccount})`);
    }
    if (this.byId.size >= this.options.maxPods) return refuse("pod-limit", `the platform holds its limit of ${this.options.maxPods} pods`);
    if (Boolean(input.gpu) === Boolean(input.cpu)) return refuse("bad-request", "exactly one of gpu and cpu must be set");
    const mounts = input.mounts ?? {};
    if (mounts.persistent && mounts.network) return refuse("bad-request", "at most one of mounts.persistent and mounts.network may be set");
    if (mounts.network && mounts.network.length !== 1) return refuse("bad-request", "mounts.network must hold exactly one entry");
    if (mounts.persistent && input.cpu) return refuse("bad-request", "mounts.persistent is not allowed on CPU pods");
    let volumeDc: string | null = null;
    if (mounts.network) {
      const found = this.volumeDataCenter(mounts.network[0]!.volumeId, accountId);
      if (found === undefined) return refuse("bad-request", `network volume ${mounts.network[0]!.volumeId} not found`);
      volumeDc = found;
    }
    const common = {
      cloud: input.cloud ?? "SECURE",
      dataCenterIds: input.dataCenterIds ?? [],
      globalNetworking: input.globalNetworking ?? false,
      networkVolumeDataCenterId: volumeDc,
    } as const;
    const request: PlacementRequest = input.gpu
      ? {
          kind: "gpu",
          ...common,
          gpuTypeIds: [input.gpu.id],
          gpuCount: input.gpu.count ?? 1,
          allowedCudaVersions: input.allowedCudaVersions ?? [],
          ...(input.minVcpuCount !== undefined ? { minVcpuCount: input.minVcpuCount } : {}),
          ...(input.minMemoryInGb !== undefined ? { minMemoryInGb: input.minMemoryInGb } : {}),
        }
      : { kind: "cpu", ...common, cpuFlavorId: input.cpu!.id, vcpuCount: input.cpu!.vcpuCount };
    const placement = place(request, { gpu: this.gpu, cpu: this.cpu }, this.catalog);
    if (!placement.ok) return refuse("no-capacity", placement.message, placement.reason);

    // Take the capacity in the same call as the placement, so it cannot have gone meanwhile.
    const gpuLease = placement.gpuTypeId !== null ? this.gpu.acquireOnHost(placement.hostIndex, placement.gpuCount) : undefined;
    const cpuLease =
      placement.gpuTypeId === null ? this.cpu.acquireOnHost(placement.hostIndex, placement.vcpuCount, placement.memoryInGb) : undefined;
    if (!gpuLease && !cpuLease) throw new Error(`placement on ${placement.hostId} could not take its capacity`);

    const index = catalogIndex(this.catalog);
    const id = uniqueId(() => shortId(this.ids, POD_ID_LENGTH), (candidate) => this.byId.has(candidate));
    const rng = this.podStreams.fork(id);
    const seed = Math.floor(rng.next() * UINT32);
    let gpu: MutablePod["gpu"] = null;
    let cpu: MutablePod["cpu"] = null;
    let computePrice: number;
    if (placement.gpuTypeId !== null) {
      const type = index.gpuType.get(placement.gpuTypeId)!;
      gpu = { id: type.id, count: placement.gpuCount, displayName: type.displayName };
      computePrice = gpuPrice(type, placement.cloud) * placement.gpuCount;
    } else {
      const flavor = index.cpuFlavor.get(input.cpu!.id) as CpuFlavor;
      cpu = { id: flavor.id, vcpuCount: placement.vcpuCount, memory: placement.memoryInGb };
      computePrice = flavor.pricePerVcpuHour * placement.vcpuCount;
    }

    const slot = this.freeSlots.length > 0 ? this.freeSlots.pop()! : this.slots.length;
    const pod: MutablePod = {
      slot,
      id,
      accountId,
      seed,
      name: input.name,
      image: input.image,
      args: input.args ?? "",
      disk: input.disk ?? this.options.defaultDisk,
      ports: [...(input.ports ?? [])],
      env: { ...(input.env ?? {}) },
      registry: input.registry ?? null,
      mounts: copyMountsInput(mounts),
      gpu,
      cpu,
      cloud: placement.cloud,
      dataCenterId: placement.dataCenterId,
      hostIndex: placement.hostIndex,
      hostId: placement.hostId,
      machineId: machineIdOf(placement.hostId),
      podHostId: podHostIdOf(id, placement.hostId),
      vcpuCount: placement.vcpuCount,
      memoryInGb: placement.memoryInGb,
      template: input.template ?? null,
      allowedCudaVersions: input.gpu ? [...(input.allowedCudaVersions ?? [])] : [],
      networkVolumeDataCenterId: volumeDc,
      computePricePerHour: computePrice,
      storagePricePerGbHour: this.options.storagePricePerGbMonth / HOURS_PER_MONTH,
      locked: false,
      globalAddress: common.globalNetworking ? this.allocateAddress(id) : null,
      status: "PROVISIONING",
      createdAt: now,
      startedAt: null,
      lastStatusChange: now,
      lastStatusVerb: STATUS_VERBS.create,
      starts: 0,
      gpuLease,
      cpuLease,
      event: undefined,
      rng,
      terminatedAt: null,
      epochMs: this.options.epochMs,
      runtimeBucket: this.options.runtimeBucket,
    };
    this.slots[slot] = pod;
    this.byId.set(id, slot);
    let mine = this.byAccount.get(accountId);
    if (!mine) this.byAccount.set(accountId, (mine = new Set()));
    mine.add(slot);
    pod.event = this.engine.after(this.delay(rng, this.options.provisioningDelay), this.advanceKind, slot);
    // The event log hashes events only; noting the pod's seed and host makes it cover what create decided too.
    this.engine.log.note(seed);
    this.engine.log.note(placement.hostIndex);
    this.emit(pod, null, now);
    return { ok: true, pod };
  }

  // ---- actions ----

  action(accountId: string, podId: string, action: PodAction, options: ActionOptions = {}): PodOutcome {
    const pod = this.get(accountId, podId) as MutablePod | undefined;
    if (!pod) return refuse("not-found", `pod ${podId} not found`);
    if (!isActionAllowed(pod.status, action)) {
      return refuse("not-allowed", `cannot ${action} pod ${podId}: it is ${pod.status}`);
    }
    if (pod.locked && (action === "stop" || action === "restart")) {
      return refuse("locked", `pod ${podId} is locked; unlock it before it can be stopped or restarted`);
    }
    switch (action) {
      case "start":
        return this.startPod(pod, options);
      case "stop":
        this.releaseHost(pod);
        this.move(pod, "EXITED", STATUS_VERBS.stop);
        return { ok: true, pod };
      case "restart":
        this.enterStarting(pod, STATUS_VERBS.restart);
        return { ok: true, pod };
      case "terminate":
        this.releaseHost(pod);
        pod.globalAddress = null;
        pod.terminatedAt = this.engine.now;
        this.move(pod, "TERMINATED", STATUS_VERBS.terminate);
        pod.event = this.engine.after(this.options.terminatedRetention, this.expireKind, pod.slot);
        return { ok: true, pod };
    }
  }

  private startPod(pod: MutablePod, options: ActionOptions): PodOutcome {
    if (pod.status === "EXITED") {
      const host = this.catalog.hosts[pod.hostIndex]!;
      if (pod.gpu) {
        const count = options.gpuCount ?? pod.gpu.count;
        const lease = Number.isSafeInteger(count) && count >= 1 && host.kind === "gpu" && count <= host.gpuCount
          ? this.gpu.acquireOnHost(pod.hostIndex, count)
          : undefined;
        if (!lease) return refuse("host-full", HOST_FULL_GPU_MESSAGE);
        pod.gpuLease = lease;
        if (count !== pod.gpu.count) this.resize(pod, count);
      } else {
        const lease = this.cpu.acquireOnHost(pod.hostIndex, pod.cpu!.vcpuCount, pod.cpu!.memory);
        if (!lease) return refuse("host-full", HOST_FULL_CPU_MESSAGE);
        pod.cpuLease = lease;
      }
    }
    // From ERROR the pod still holds its host: only the container starts again.
    this.enterStarting(pod, STATUS_VERBS.start);
    return { ok: true, pod };
  }

  // ---- update ----

  update(accountId: string, podId: string, input: PodUpdateInput): PodOutcome {
    const pod = this.get(accountId, podId) as MutablePod | undefined;
    if (!pod) return refuse("not-found", `pod ${podId} not found`);
    if (pod.status === "TERMINATED") return refuse("not-allowed", `cannot update pod ${podId}: it is TERMINATED`);
    const mountProblem = checkMountUpdate(pod.mounts, input.mounts);
    if (mountProblem) return refuse("bad-request", mountProblem);
    if (input.globalNetworking === true && !pod.globalAddress) {
      const type = pod.gpu ? catalogIndex(this.catalog).gpuType.get(pod.gpu.id) : undefined;
      const dc = catalogIndex(this.catalog).dataCenter.get(pod.dataCenterId);
      if (type?.manufacturer !== "Nvidia" || !dc?.globalNetwork) {
        return refuse("bad-request", "global networking needs an NVIDIA GPU pod in a data center with global networking");
      }
    }

    let containerChanged = false;
    const set = <K extends "image" | "args" | "disk" | "registry">(key: K, value: MutablePod[K] | undefined) => {
      if (value === undefined || value === pod[key]) return;
      pod[key] = value;
      containerChanged = true;
    };
    if (input.name !== undefined) pod.name = input.name;
    if (input.locked !== undefined) pod.locked = input.locked;
    set("image", input.image);
    set("args", input.args);
    set("disk", input.disk);
    set("registry", input.registry);
    if (input.ports !== undefined && !sameList(input.ports, pod.ports)) {
      pod.ports = [...input.ports];
      containerChanged = true;
    }
    if (input.env !== undefined && !sameRecord(input.env, pod.env)) {
      pod.env = { ...input.env };
      containerChanged = true;
    }
    const mounts = applyMountUpdate(pod.mounts, input.mounts);
    if (mounts !== pod.mounts) {
      pod.mounts = mounts;
      containerChanged = true;
    }
    if (input.globalNetworking !== undefined) {
      if (input.globalNetworking && !pod.globalAddress) pod.globalAddress = this.allocateAddress(pod.id);
      if (!input.globalNetworking) pod.globalAddress = null;
    }
    // The real platform resets a running pod to apply a container change.
    if (containerChanged && (pod.status === "RUNNING" || pod.status === "STARTING")) this.enterStarting(pod, STATUS_VERBS.update);
    return { ok: true, pod };
  }

  // ---- internals ----

  private advance(slot: number, now: Micros): void {
    const pod = this.slots[slot];
    if (!pod) return;
    pod.event = undefined;
    if (pod.status === "PROVISIONING") {
      this.enterStarting(pod, null);
    } else if (pod.status === "STARTING") {
      if (pod.rng.bernoulli(this.options.failureRate)) {
        this.move(pod, "ERROR", STATUS_VERBS.error);
      } else {
        pod.startedAt = now;
        this.move(pod, "RUNNING", null);
      }
    }
  }

  /** To STARTING (a new container), with a fresh starting delay; the host is kept. */
  private enterStarting(pod: MutablePod, verb: string | null): void {
    pod.starts++;
    pod.startedAt = null;
    this.move(pod, "STARTING", verb);
    pod.event = this.engine.after(this.delay(pod.rng, this.options.startingDelay), this.advanceKind, pod.slot);
  }

  /** Sets the status, cancels any pending transition, records the change and tells listeners. */
  private move(pod: MutablePod, status: PodStatus, verb: string | null): void {
    const from = pod.status;
    if (pod.event !== undefined) this.engine.cancel(pod.event);
    pod.event = undefined;
    pod.status = status;
    this.engine.log.note(POD_STATUSES.indexOf(status));
    if (status !== "RUNNING") pod.startedAt = null;
    if (verb !== null) {
      pod.lastStatusChange = this.engine.now;
      pod.lastStatusVerb = verb;
    }
    this.emit(pod, from, this.engine.now);
  }

  /** Clears the pod's leases before releasing them: release tells listeners, which must not see the pod holding freed GPUs. */
  private releaseHost(pod: MutablePod): void {
    const { gpuLease, cpuLease } = pod;
    pod.gpuLease = undefined;
    pod.cpuLease = undefined;
    if (gpuLease) this.gpu.release(gpuLease);
    if (cpuLease) this.cpu.release(cpuLease);
  }

  /** A GPU pod resumed with another GPU count: its share of the host and its price follow. */
  private resize(pod: MutablePod, count: number): void {
    const host = this.catalog.hosts[pod.hostIndex]!;
    if (host.kind !== "gpu" || !pod.gpu) return;
    const type = catalogIndex(this.catalog).gpuType.get(pod.gpu.id)!;
    pod.gpu = { ...pod.gpu, count };
    pod.vcpuCount = Math.floor(host.vcpuCount / host.gpuCount) * count;
    pod.memoryInGb = Math.floor(host.memoryInGb / host.gpuCount) * count;
    pod.computePricePerHour = gpuPrice(type, pod.cloud) * count;
  }

  private drop(slot: number): void {
    const pod = this.slots[slot];
    if (!pod) return;
    this.slots[slot] = undefined;
    this.freeSlots.push(slot);
    this.byId.delete(pod.id);
    const mine = this.byAccount.get(pod.accountId);
    mine?.delete(slot);
    if (mine && mine.size === 0) this.byAccount.delete(pod.accountId);
  }

  private delay(rng: Rng, d: DelayDistribution): Micros {
    return Math.max(1, Math.round(rng.lognormalMeanCv(d.mean, d.cv)));
  }

  /** Addresses in 10.0.0.0/8 handed out in order (last octet 1..254), wrapping after 2^24. */
  private allocateAddress(podId: string): { ip: string; internalDns: string } {
    let n: number;
    do {
      n = this.addressCounter = (this.addressCounter + 1) % 0x1000000;
    } while ((n & 255) === 0 || (n & 255) === 255);
    return { ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`, internalDns: `${podId}.${this.options.internalDomain}` };
  }

  private emit(pod: PodRecord, from: PodStatus | null, now: Micros): void {
    for (const l of [...this.listeners]) l(pod, from, now);
  }
}

/** Per-GPU price in a cloud; the other cloud's price if the catalog has none for this one (it should). */
function gpuPrice(type: GpuType, cloud: "SECURE" | "COMMUNITY"): number {
  const own = cloud === "SECURE" ? type.securePrice : type.communityPrice;
  return own ?? type.securePrice ?? type.communityPrice ?? 0;
}

function copyMountsInput(m: PodCreateInput["mounts"] & object): PodMounts {
  if (m.persistent) return { persistent: { size: m.persistent.size, path: m.persistent.path } };
  if (m.network) return { network: m.network.map((n) => ({ volumeId: n.volumeId, path: n.path })) };
  return {};
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameRecord(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

