/**
 * The commands of the lifecycle model (fast-check's `fc.commands`): create a GPU or CPU pod, read
 * one, list them, let time pass, send an action, DELETE, and switch global networking by PATCH.
 * Each ends by reading the pod(s) it touched, so the rule's checker sees the state after every
 * step. The model is the session itself, with its shadow platform (the sim/domain model's pods,
 * sent what the target accepted and following what it was read in): `check` only asks whether
 * the command can run (a pod to act on, a route the target has), so a shrunk sequence stays runnable.
 */
import fc from "fast-check";
import { POD_ACTIONS, type PodAction } from "../../../sim/api/schemas/index.ts";
import { createPodBodyArb } from "../../../sim/api/validate/index.ts";
import { isNvidia } from "../../../sim/api/validate/sample-catalog.ts";
import type { ArbitraryCatalog } from "../../../sim/api/validate/index.ts";
import { createdPodId } from "./create-pod-client.ts";
import { createPod, deletePod, isSuccess, jsonObject, listPods, patchPod, podAction, routeMissing } from "./lifecycle-pods.ts";
import type { CommandKind, TrackedPod } from "./lifecycle-observation.ts";
import { MAX_CREATED_PODS, MAX_LIVE_PODS, REAL_WAIT_CAP_MS, type LifecycleSession } from "./lifecycle-session.ts";
import { realtimeBounds } from "../../check-context.ts";
import { SETTLED_POD_STATUSES } from "../support/pod-settled.ts";
import { adaptivePauses } from "../support/poll.ts";

type Command = fc.AsyncCommand<LifecycleSession, LifecycleSession, false>;

const pick = (s: LifecycleSession, n: number, ok: (p: TrackedPod) => boolean = () => true): TrackedPod | undefined => {
  const candidates = s.live().filter(ok);
  return candidates.length ? candidates[n % candidates.length] : undefined;
};

class CreatePod implements Command {
  constructor(readonly body: Record<string, any>) {}
  check(s: LifecycleSession): boolean {
    return s.pods.length < MAX_CREATED_PODS && s.live().filter((p) => !p.terminated).length < MAX_LIVE_PODS;
  }
  async run(_: LifecycleSession, s: LifecycleSession): Promise<void> {
    const res = s.note(await createPod(s.ctx, this.body));
    // The body's id, else the one its Location header names (the spec wants it in the body: pods.create.response-required-fields judges that).
    const id = createdPodId(res);
    // A refused create (no capacity, a choice of the target's) is createPod's rules' business, not these.
    if (!isSuccess(res.status) || id === undefined) return;
    const pod = s.track(res, this.body, this.body.cpu ? "cpu" : "gpu", id);
    await s.observeView(pod, res);
  }
  toString(): string {
    return `create(${this.body.cpu ? "cpu" : "gpu"}${this.body.mounts?.network ? ",network" : this.body.mounts?.persistent ? ",persistent" : ""}${this.body.globalNetworking ? ",global" : ""})`;
  }
}

/**
 * Creates a pod, then reads it until it is RUNNING (or settled, or gone), bounded: 10 virtual
 * minutes with the control API, REALTIME_RUNNING_WAIT_MS (times the run's measured factor) of real time elsewhere (a pod's start,
 * an image pull, may take minutes). The rules on RUNNING pods are judged on what it reads.
 */
class CreateRunning extends CreatePod {
  override async run(m: LifecycleSession, s: LifecycleSession): Promise<void> {
    const before = s.pods.length;
    await super.run(m, s);
    const pod = s.pods.length > before ? s.pods[s.pods.length - 1]! : undefined;
    if (pod === undefined) return;
    const pauses = s.ctx.controlApi ? Array<number>(40).fill(15_000) : adaptivePauses(realtimeBounds(s.ctx.options).runningWaitMs, REAL_WAIT_CAP_MS);
    for (const ms of pauses) {
      if (pod.gone || pod.terminated || pod.status === "RUNNING" || SETTLED_POD_STATUSES.has(pod.status ?? "") || s.over()) return;
      await s.wait(ms);
      await s.refresh(pod);
    }
  }
  override toString(): string {
    return `${super.toString()},until-running`;
  }
}

/** Creates a pod, reads it until RUNNING, stops it and reads it until EXITED (bounded as CreateRunning's wait). */
class CreateStopped extends CreateRunning {
  override async run(m: LifecycleSession, s: LifecycleSession): Promise<void> {
    const before = s.pods.length;
    await super.run(m, s);
    const pod = s.pods.length > before ? s.pods[s.pods.length - 1]! : undefined;
    if (pod === undefined || pod.gone || pod.terminated || pod.status !== "RUNNING" || s.over()) return;
    const statusBefore = s.statusOf(pod);
    const res = s.note(await podAction(s.ctx, pod.id, "stop"));
    await s.observe({ kind: "operation", pod, operation: "stop", statusBefore, response: res });
    if (!isSuccess(res.status)) return;
    pod.changedBy = "stop";
    if (res.status === 200) await s.observeView(pod, res);
    const pauses = s.ctx.controlApi ? Array<number>(40).fill(15_000) : adaptivePauses(realtimeBounds(s.ctx.options).runningWaitMs, REAL_WAIT_CAP_MS);
    for (const ms of pauses) {
      if (pod.gone || pod.terminated || (pod.status as string | undefined) === "EXITED" || s.over()) return;
      await s.wait(ms);
      await s.refresh(pod);
    }
  }
  override toString(): string {
    return `${super.toString()},stop,until-exited`;
  }
}

class GetPod implements Command {
  constructor(readonly n: number) {}
  check(s: LifecycleSession): boolean {
    return pick(s, this.n) !== undefined;
  }
  async run(_: LifecycleSession, s: LifecycleSession): Promise<void> {
    await s.refresh(pick(s, this.n)!);
  }
  toString(): string {
    return `get(#${this.n})`;
  }
}

class ListPods implements Command {
  check(s: LifecycleSession): boolean {
    return s.env.support.list && s.live().length > 0;
  }
  async run(_: LifecycleSession, s: LifecycleSession): Promise<void> {
    const res = s.note(await listPods(s.ctx));
    // The pods that exist and are not TERMINATED, in the shadow platform as on the target.
    const expectedIds = s.live().filter((p) => !p.terminated && s.statusOf(p) !== "TERMINATED").map((p) => p.id);
    await s.observe({ kind: "list", response: res, expectedIds });
    if (routeMissing(res.status)) s.env.support.list = false;
    const pods = jsonObject(res)?.pods;
    if (res.status !== 200 || !Array.isArray(pods)) return;
    for (const pod of s.live()) {
      const view = pods.find((p: any) => p && typeof p === "object" && p.id === pod.id);
      if (view) await s.observe({ kind: "view", pod, view, exchange: res.exchange, previous: pod.status, changedBy: pod.changedBy });
    }
  }
  toString(): string {
    return "list";
  }
}

class Advance implements Command {
  constructor(readonly ms: number) {}
  check(s: LifecycleSession): boolean {
    return s.live().length > 0;
  }
  async run(_: LifecycleSession, s: LifecycleSession): Promise<void> {
    await s.wait(this.ms);
    for (const pod of s.live()) await s.refresh(pod);
  }
  toString(): string {
    return `advance(${Math.round(this.ms / 1000)}s)`;
  }
}

/**
 * An action: mostly one the pod's own `actions` list offers (so pods move through states), and
 * sometimes any of the four (so refusals are exercised too).
 */
class Action implements Command {
  constructor(readonly n: number, readonly choice: number, readonly anyAction: boolean) {}
  check(s: LifecycleSession): boolean {
    return s.env.support.action && pick(s, this.n) !== undefined;
  }
  private actionFor(pod: TrackedPod, unserved: ReadonlySet<string>): PodAction {
    const served = POD_ACTIONS.filter((a) => !unserved.has(a));
    const offered = pod.actions.filter((a): a is PodAction => served.includes(a as PodAction));
    const from = this.anyAction || offered.length === 0 ? served : offered;
    return from[this.choice % from.length];
  }
  async run(_: LifecycleSession, s: LifecycleSession): Promise<void> {
    const pod = pick(s, this.n)!;
    // In real time a pod moves on its own: the action is judged against its status read right
    // before it is sent, not the one seen steps ago (on a clock the suite moves, nothing moved).
    if (!s.ctx.controlApi) {
      await s.refresh(pod);
      if (pod.gone) return;
    }
    const action = this.actionFor(pod, s.env.support.unservedActions);
    this.last = action;
    const statusBefore = s.statusOf(pod);
    const res = s.note(await podAction(s.ctx, pod.id, action));
    await s.observe({ kind: "operation", pod, operation: action, statusBefore, response: res });
    if (isSuccess(res.status)) {
      pod.changedBy = action;
      if (action === "terminate") pod.terminated = true;
      if (res.status === 200) await s.observeView(pod, res);
    } else if (routeMissing(res.status) && !pod.terminated) {
      s.env.support.unservedActions.add(action);
      if (POD_ACTIONS.every((a) => s.env.support.unservedActions.has(a))) s.env.support.action = false;
    }
    await s.refresh(pod);
  }
  private last: PodAction | undefined;
  toString(): string {
    return `${this.last ?? (this.anyAction ? "any-action" : "offered-action")}(#${this.n})`;
  }
}

class DeletePod implements Command {
  constructor(readonly n: number) {}
  check(s: LifecycleSession): boolean {
    return s.env.support.delete && pick(s, this.n) !== undefined;
  }
  async run(_: LifecycleSession, s: LifecycleSession): Promise<void> {
    const pod = pick(s, this.n)!;
    const statusBefore = s.statusOf(pod);
    const wasTerminated = pod.terminated;
    const res = s.note(await deletePod(s.ctx, pod.id));
    await s.observe({ kind: "operation", pod, operation: "delete", statusBefore, response: res });
    if (isSuccess(res.status)) {
      pod.changedBy = "delete";
      pod.terminated = true;
      // A target that answers the delete with the pod (TERMINATED, maybe dropped at once after):
      // that answer is the one look at the terminated pod there may be.
      if (res.status === 200 && jsonObject(res)?.id === pod.id) await s.observeView(pod, res);
    } else if (routeMissing(res.status) && !wasTerminated) {
      s.env.support.delete = false;
    }
    await s.refresh(pod);
  }
  toString(): string {
    return `delete(#${this.n})`;
  }
}

/** Global networking on or off by PATCH (GPU pods only): exercises the networking fields' shape over time. */
class PatchGlobalNetworking implements Command {
  constructor(readonly n: number, readonly enabled: boolean) {}
  check(s: LifecycleSession): boolean {
    return s.env.support.patch && pick(s, this.n, (p) => p.kind === "gpu" && !p.terminated) !== undefined;
  }
  async run(_: LifecycleSession, s: LifecycleSession): Promise<void> {
    const pod = pick(s, this.n, (p) => p.kind === "gpu" && !p.terminated)!;
    const statusBefore = s.statusOf(pod);
    const res = s.note(await patchPod(s.ctx, pod.id, { globalNetworking: this.enabled }));
    await s.observe({ kind: "operation", pod, operation: "patch", statusBefore, response: res });
    if (isSuccess(res.status)) {
      pod.changedBy = "patch";
      if (res.status === 200) await s.observeView(pod, res);
    } else if (res.status === 405 || (res.status === 404 && !pod.terminated)) {
      s.env.support.patch = false;
    }
    await s.refresh(pod);
  }
  toString(): string {
    return `patch(#${this.n},globalNetworking=${this.enabled})`;
  }
}

/**
 * A valid createPod body from the target's catalog, made likelier to be placed: one GPU (the
 * count is createPod's rules' concern), no registry credential (the target's own ids are unknown).
 * With `global`, an NVIDIA GPU pod asks for global networking in the data centers that offer it.
 */
function createBodyArb(catalog: ArbitraryCatalog, global = false): fc.Arbitrary<Record<string, any>> {
  const globalDcs = catalog.dataCenters.filter((d) => d.globalNetwork).map((d) => d.id);
  const nvidia = new Set(catalog.gpuTypes.filter((g) => isNvidia(g)).map((g) => g.id));
  const volumeDc = new Map(catalog.networkVolumes.map((v) => [v.id, v.dataCenterId]));
  return createPodBodyArb(catalog).map((b) => {
    const body: Record<string, any> = { ...b };
    delete body.registry;
    if (body.gpu) body.gpu = { id: body.gpu.id };
    if (global && body.gpu && nvidia.has(body.gpu.id) && globalDcs.length > 0) {
      const dc = body.mounts?.network ? volumeDc.get(body.mounts.network[0].volumeId) : undefined;
      if (dc !== undefined && !globalDcs.includes(dc)) delete body.mounts;
      body.globalNetworking = true;
      body.dataCenterIds = dc !== undefined && globalDcs.includes(dc) ? [dc] : globalDcs;
    }
    return body;
  });
}

export interface CommandOptions {
  readonly catalog: ArbitraryCatalog;
  /** Upper bound of one time step, in ms (virtual with the control API). */
  readonly maxAdvanceMs: number;
  readonly maxCommands: number;
  /** Ask GPU pods for global networking where the catalog allows it: always, or in some creates ("sometimes", the shared run of every rule). */
  readonly globalPods?: boolean | "sometimes";
  /** Weights that replace the default ones for some commands. */
  readonly focus?: Partial<Record<CommandKind, number>>;
}

/** Whether the catalog lets the generators make any createPod body at all. */
const canCreate = (c: ArbitraryCatalog): boolean => c.gpuTypes.length > 0 || c.cpuFlavors.some((f) => f.vcpuCounts.length > 0);

const DEFAULT_WEIGHTS: Readonly<Record<CommandKind, number>> = { create: 3, get: 1, list: 1, advance: 4, action: 4, delete: 1, patch: 1 };

/**
 * A run: a first pod (so no run is spent without one), then the drawn commands. The first
 * create shrinks with its body; the commands shrink as fast-check's command lists do.
 */
/** Create bodies, with global networking asked for as `globalPods` says. */
function bodiesArb(o: CommandOptions): fc.Arbitrary<Record<string, any>> {
  if (o.globalPods === "sometimes") return fc.oneof(createBodyArb(o.catalog, false), createBodyArb(o.catalog, true));
  return createBodyArb(o.catalog, o.globalPods === true);
}

export type LifecycleRun = { first: Command | undefined; commands: Iterable<Command> };

export function lifecycleRunArb(o: CommandOptions): fc.Arbitrary<LifecycleRun> {
  const first = canCreate(o.catalog) ? bodiesArb(o).map((b): Command | undefined => new CreatePod(b)) : fc.constant(undefined);
  return fc.record({ first, commands: lifecycleCommands(o) });
}

/**
 * A run whose first pod mounts one of the catalog's network volumes, or undefined when the
 * catalog lists none. Drawn bodies carry a network mount about one create in four; the rules of
 * a pod on a volume (its data center) would otherwise be judged by chance, and against a
 * real-time target a property has time for few runs. The lifecycle run adds one such run when
 * the draws left a rule about such pods unjudged.
 */
export function volumeFirstRunArb(o: CommandOptions): fc.Arbitrary<LifecycleRun> | undefined {
  if (o.catalog.networkVolumes.length === 0) return undefined;
  // In the default cloud (a network volume is a SECURE cloud's storage on the platforms we know).
  const onVolume = createBodyArb(o.catalog)
    .filter((b) => Array.isArray(b.mounts?.network) && b.mounts.network.length > 0)
    .map(({ cloud: _cloud, ...b }) => b);
  return fc.record({ first: onVolume.map((b): Command | undefined => new CreatePod(b)), commands: lifecycleCommands(o) });
}

export function lifecycleCommands(o: CommandOptions): fc.Arbitrary<Iterable<Command>> {
  const n = fc.nat({ max: 7 });
  // Weights: time steps and actions first, so a short sequence already has pods moving through states.
  const w = { ...DEFAULT_WEIGHTS, ...o.focus };
  const weighted: fc.WeightedArbitrary<Command>[] = [
    ...(canCreate(o.catalog) ? [{ arbitrary: bodiesArb(o).map((b) => new CreatePod(b) as Command), weight: w.create }] : []),
    { arbitrary: n.map((i) => new GetPod(i) as Command), weight: w.get },
    { arbitrary: fc.constant(new ListPods() as Command), weight: w.list },
    { arbitrary: fc.integer({ min: 1_000, max: o.maxAdvanceMs }).map((ms) => new Advance(ms) as Command), weight: w.advance },
    { arbitrary: fc.tuple(n, fc.nat({ max: 11 }), fc.boolean()).map(([i, c, any]) => new Action(i, c, any) as Command), weight: w.action },
    { arbitrary: n.map((i) => new DeletePod(i) as Command), weight: w.delete },
    { arbitrary: fc.tuple(n, fc.boolean()).map(([i, e]) => new PatchGlobalNetworking(i, e) as Command), weight: w.patch },
  ].filter((x) => x.weight > 0);
  const arbs = [fc.oneof(...weighted)];
  return fc.commands(arbs, { maxCommands: o.maxCommands, size: "max" });
}

/**
 * A run whose first pod asks for global networking on an NVIDIA GPU in a data center that offers
 * it, or undefined when the catalog has no such pair: the rules on globally networked pods
 * (their address, their internal DNS name) would otherwise be judged by chance.
 */
export function globalFirstRunArb(o: CommandOptions): fc.Arbitrary<LifecycleRun> | undefined {
  if (!o.catalog.gpuTypes.some((g) => isNvidia(g)) || !o.catalog.dataCenters.some((d) => d.globalNetwork)) return undefined;
  const global = createBodyArb(o.catalog, true)
    .filter((b) => b.globalNetworking === true)
    .map(({ cloud: _cloud, ...b }) => b);
  return fc.record({ first: global.map((b): Command | undefined => new CreatePod(b)), commands: lifecycleCommands(o) });
}

/**
 * A run whose first pod is read until it is RUNNING, or undefined when the catalog allows no
 * create: against a real-time target whose pods start slowly, the drawn runs may end before any
 * pod runs, and the rules on RUNNING pods would go unjudged.
 */
export function runningFirstRunArb(o: CommandOptions): fc.Arbitrary<LifecycleRun> | undefined {
  if (!canCreate(o.catalog)) return undefined;
  return fc.record({ first: createBodyArb(o.catalog).map((b): Command | undefined => new CreateRunning(b)), commands: lifecycleCommands(o) });
}

/** A run whose first pod is stopped once RUNNING and read until EXITED, or undefined when the catalog allows no create. */
export function exitedFirstRunArb(o: CommandOptions): fc.Arbitrary<LifecycleRun> | undefined {
  if (!canCreate(o.catalog)) return undefined;
  return fc.record({ first: createBodyArb(o.catalog).map((b): Command | undefined => new CreateStopped(b)), commands: lifecycleCommands(o) });
}

/**
 * The command as fast-check runs it, refused once the session is over (its property's time bound
 * spent, or the check ended): a run fast-check cut then skips its remaining commands.
 */
export function guarded(c: Command): Command {
  return { check: (s) => !s.over() && c.check(s), run: (m, s) => c.run(m, s), toString: () => c.toString() };
}
