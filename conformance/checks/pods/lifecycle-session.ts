/**
 * One run of the lifecycle model against the target: the pods it created, every exchange in
 * order (the reproduction of a failure replays them), and the rule's checker applied to every
 * observation. A violation is thrown as a LifecycleViolation carrying the failure's evidence,
 * which fast-check catches and shrinks; the shrunk run's violation is the one reported.
 */
import type { CheckContext, FailureInput } from "../../check.ts";
import type { ClientResponse } from "../../client.ts";
import type { CurlCapture } from "../../curl.ts";
import type { Exchange } from "../../recorder.ts";
import { platformOracle } from "../../oracle/platform-oracle.ts";
import type { ShadowPlatform } from "../../oracle/shadow-platform.ts";
import { advance } from "../support/time.ts";
import { podIdCapture } from "./create-pod-client.ts";
import { getPod, jsonObject, terminatePod } from "./lifecycle-pods.ts";
import type { CheckerEnv, InvariantChecker, Observation, TrackedPod } from "./lifecycle-observation.ts";
import { exchangeOf } from "./lifecycle-observation.ts";
import type { TargetCatalog } from "./lifecycle-target.ts";
import { workingNow, type WorkingNow } from "../../working-time.ts";

/** What the runs of one check learn of the target's routes: an answer 404/405 on a live pod turns one off. */
export interface RouteSupport {
  /** False once every action answered as a missing route. */
  action: boolean;
  /**
   * Actions that answered as a missing route on a pod that exists: a target may serve some verbs
   * and not others (`/{id}:stop` but no `:terminate`, DELETE terminating), so one verb's 404
   * never takes the others away.
   */
  readonly unservedActions: Set<string>;
  delete: boolean;
  patch: boolean;
  list: boolean;
}

/** One rule's checker in the shared run, with what it met. */
export interface RuleChecker {
  readonly ruleId: string;
  readonly checker: InvariantChecker;
  /** Observations the rule applied to, over all runs. */
  applicable: number;
  /** Its first violation, when it broke (and was not the one being shrunk). */
  violation?: FailureInput;
}

/** Shared by the runs of one check. */
export interface LifecycleEnv {
  readonly ctx: CheckContext;
  readonly target: TargetCatalog;
  /** Every rule's checker, all run after every step (one model, many checkers). */
  readonly checkers: readonly RuleChecker[];
  readonly support: RouteSupport;
  /** Every pod status a record was observed in, over all runs: a rule on EXITED pods knows whether one was seen. */
  readonly seenStatuses: Set<string>;
  /**
   * When the property in progress must stop, in working time (working-time.ts: the requests'
   * waits for rate-limit quota not counted), or Infinity; --max-duration (ctx.deadline) stops it too. fast-check
   * leaves a run it cut going, unawaited; that run's next commands are skipped (`over`) and it
   * goes straight to its clean-up, so it never overlaps the next property's runs.
   */
  runUntil: number;
  /**
   * The rule whose violation fast-check is shrinking: once one rule broke, only its violations
   * stop a run, so the shrunk sequence is that rule's; the others' are noted as they come.
   */
  focus?: string;
}

export class LifecycleViolation extends Error {
  constructor(
    readonly failure: FailureInput,
    readonly ruleId = "",
  ) {
    super(failure.expected);
    this.name = "LifecycleViolation";
  }
}

/** The most pods one run keeps alive, and creates in all: bounds on what a run costs. */
export const MAX_LIVE_PODS = 3;
export const MAX_CREATED_PODS = 5;

export class LifecycleSession {
  readonly pods: TrackedPod[] = [];
  private readonly exchanges: Exchange[] = [];
  private readonly checkerEnv: CheckerEnv;
  /** The platform model's pods beside the target's: each command the target accepted is sent to them, each state read is adopted. */
  private readonly shadow: ShadowPlatform;

  /** The bound of the property this run belongs to (env.runUntil when it began), and the clock it is read on. */
  private readonly runUntil: number;
  private readonly working: WorkingNow;

  constructor(readonly env: LifecycleEnv) {
    this.runUntil = env.runUntil;
    this.working = workingNow(env.ctx.client);
    const volumes = new Map((env.target.volumes ?? []).map((v) => [v.id, v.dataCenterId]));
    this.checkerEnv = {
      profile: env.ctx.options.profile,
      oracle: env.ctx.oracle ?? platformOracle(env.ctx.options.profile),
      volumeDataCenter: (id) => volumes.get(id),
      reread: async (pod, waitMs) => {
        await this.wait(waitMs);
        const res = this.note(await getPod(env.ctx, pod.id));
        return { view: res.status === 200 ? jsonObject(res) : undefined, exchange: res.exchange };
      },
    };
    this.shadow = this.checkerEnv.oracle.shadow(env.ctx.seed);
  }

  /** The pod's status in the shadow platform (the state the oracle's sets start from), else the last one read. */
  statusOf(pod: TrackedPod): string | undefined {
    return this.shadow.podStatus(pod.id) ?? pod.status;
  }

  get ctx(): CheckContext {
    return this.env.ctx;
  }

  /** Whether the run must end now: the check is over, or the time bound of its property is spent. */
  over(): boolean {
    return this.ctx.signal.aborted || Date.now() >= this.ctx.deadline || this.working() >= this.runUntil;
  }

  live(): TrackedPod[] {
    return this.pods.filter((p) => !p.gone);
  }

  /** Records an answer in the run's sequence and returns it. */
  note(res: ClientResponse): ClientResponse {
    this.exchanges.push(res.exchange);
    return res;
  }

  /** Lets time pass on the target; the control API's request joins the sequence so a replay waits too. */
  async wait(ms: number): Promise<void> {
    const before = this.ctx.client.exchanges().length;
    await advance(this.ctx, this.ctx.controlApi ? ms : Math.min(ms, REAL_WAIT_CAP_MS));
    const after = this.ctx.client.exchanges();
    if (this.ctx.controlApi && after.length > before) this.exchanges.push(after[after.length - 1]);
  }

  track(res: ClientResponse, body: Record<string, any>, kind: "gpu" | "cpu", id: string): TrackedPod {
    const label = `POD_${this.pods.length + 1}`;
    const capture: CurlCapture = podIdCapture(label, this.exchanges.indexOf(res.exchange), res.exchange, id);
    const pod: TrackedPod = { label, id, kind, body, capture, status: undefined, actions: [], changedBy: undefined, terminated: false, gone: false };
    this.pods.push(pod);
    this.shadow.podCreated(id, kind);
    return pod;
  }

  /**
   * Runs every rule's checker on one observation. The first violation of the rule in focus (any
   * rule, until one broke) throws a LifecycleViolation; another rule's is noted for that rule.
   */
  async observe(obs: Observation): Promise<void> {
    if (obs.kind === "view") {
      const status = typeof obs.view.status === "string" ? obs.view.status : undefined;
      if (status !== undefined && status !== obs.previous) this.ctx.exercised("pod", obs.previous ?? "(none)", status);
    }
    for (const rc of this.env.checkers) {
      if (!rc.checker.applies(obs, this.checkerEnv)) continue;
      rc.applicable++;
      const violation = await rc.checker.check(obs, this.checkerEnv);
      if (!violation) continue;
      const failure = this.failure(violation.expected, violation.exchange ?? exchangeOf(obs));
      if (this.env.focus === undefined || this.env.focus === rc.ruleId) {
        this.env.focus = rc.ruleId;
        throw new LifecycleViolation(failure, rc.ruleId);
      }
      rc.violation ??= failure;
    }
    if (obs.kind === "operation") this.shadow.podSent(obs.pod.id, obs.operation, obs.response.status);
    if (obs.kind === "view") {
      const status = typeof obs.view.status === "string" ? obs.view.status : undefined;
      if (status !== undefined) this.shadow.podObserved(obs.pod.id, status);
      if (status !== undefined) this.env.seenStatuses.add(status);
      obs.pod.status = status;
      obs.pod.actions = Array.isArray(obs.view.actions) ? obs.view.actions.filter((a): a is string => typeof a === "string") : [];
      // An accepted operation may take effect a moment later: until the status moves, what
      // follows is still its doing (a target may answer an action with the pod as it was).
      if (status !== obs.previous) obs.pod.changedBy = undefined;
      if (status === "TERMINATED") obs.pod.terminated = true;
    }
  }

  /** Observes a Pod record answered for `pod` (by whatever request). */
  async observeView(pod: TrackedPod, res: ClientResponse): Promise<void> {
    const view = jsonObject(res);
    if (!view) return;
    await this.observe({ kind: "view", pod, view, exchange: res.exchange, previous: pod.status, changedBy: pod.changedBy });
  }

  /** Reads a pod and observes it; a 404 after termination means the target dropped it. */
  async refresh(pod: TrackedPod): Promise<void> {
    if (pod.gone) return;
    const res = this.note(await getPod(this.ctx, pod.id));
    if (res.status === 200) return this.observeView(pod, res);
    // A pod that vanished without being terminated is no rule of these checks; it is just gone.
    if (res.status === 404) pod.gone = true;
  }

  /** The failure: the exchange that shows it, the run's earlier requests, and the pod ids they pass on. */
  failure(expected: string, exchange: Exchange): FailureInput {
    let index = this.exchanges.lastIndexOf(exchange);
    if (index < 0) {
      this.exchanges.push(exchange);
      index = this.exchanges.length - 1;
    }
    const sequence = this.exchanges.slice(0, index);
    const captures = this.pods.map((p) => p.capture).filter((c) => c.fromRequest >= 0 && c.fromRequest < index);
    return { expected, exchange, sequence, ...(captures.length ? { captures } : {}) };
  }

  /** Terminates every pod the run created and did not see terminated. */
  async cleanup(): Promise<void> {
    for (const pod of this.pods) if (!pod.terminated && !pod.gone) await terminatePod(this.ctx, pod.id);
  }
}

/** Against a target without the control API time passes for real: never more than this per step. */
export const REAL_WAIT_CAP_MS = 4_000;
