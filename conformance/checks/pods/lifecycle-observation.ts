/**
 * What the lifecycle model sees, step by step, and what a checker of one rule is: a function of
 * one observation that answers a violation or nothing. One checker per rule, run after every
 * step of the model (TigerBeetle's `*_checker.zig`): the rule's check shrinks to the shortest
 * sequence of pod operations that breaks that rule.
 */
import type { PodAction } from "../../../sim/api/schemas/index.ts";
import type { ClientResponse } from "../../client.ts";
import type { CurlCapture } from "../../curl.ts";
import type { Oracle } from "../../oracle/oracle.ts";
import type { Profile } from "../../options.ts";
import type { Exchange } from "../../recorder.ts";

/** A pod the model created, with what it asked for and what it last saw. */
export interface TrackedPod {
  /** The curl variable its id becomes in a reproduction (POD_1 ...). */
  readonly label: string;
  readonly id: string;
  readonly kind: "gpu" | "cpu";
  /** The createPod body it was made with. */
  readonly body: Readonly<Record<string, any>>;
  readonly capture: CurlCapture;
  /** The status last observed. */
  status: string | undefined;
  /** The `actions` list last observed (the target's own word on what the pod allows). */
  actions: readonly string[];
  /** An operation the target accepted since the last observation (an action, "delete", "patch"). */
  changedBy: string | undefined;
  /** A terminate or delete was accepted, or TERMINATED was seen. */
  terminated: boolean;
  /** The target no longer knows it (404 after it was terminated). */
  gone: boolean;
}

export type PodOperation = PodAction | "delete" | "patch";

export type Observation =
  /** A Pod record the target answered (create, get, list, an action, a PATCH). */
  | {
      readonly kind: "view";
      readonly pod: TrackedPod;
      readonly view: Readonly<Record<string, unknown>>;
      readonly exchange: Exchange;
      /** The status observed before this one; undefined for the create answer. */
      readonly previous: string | undefined;
      /** An operation accepted between the previous observation and this one. */
      readonly changedBy: string | undefined;
    }
  /** An action, DELETE or PATCH sent to a pod, with the status seen before it. */
  | {
      readonly kind: "operation";
      readonly pod: TrackedPod;
      readonly operation: PodOperation;
      readonly statusBefore: string | undefined;
      readonly response: ClientResponse;
    }
  /** A listPods answer, with the pods the model expects in it (not yet terminated). */
  | { readonly kind: "list"; readonly response: ClientResponse; readonly expectedIds: readonly string[] };

export interface Violation {
  /** What the rule requires, in words, naming the rule's sentence. */
  readonly expected: string;
  /** The exchange that shows it (default: the observation's). */
  readonly exchange?: Exchange;
}

/** What a checker may use besides the observation. */
export interface CheckerEnv {
  readonly profile: Profile;
  /** The platform model as the oracle: the states and answers the spec allows (narrowed under strict). */
  readonly oracle: Oracle;
  /** The data center of one of the account's network volumes, when the target said. */
  volumeDataCenter(volumeId: string): string | undefined;
  /** Reads the pod again after a short wait (for rules that allow a moment's lag). */
  reread(pod: TrackedPod, waitMs: number): Promise<{ view: Record<string, unknown> | undefined; exchange: Exchange }>;
}

export interface InvariantChecker {
  /** Whether the observation is one the rule speaks about; a run that never met one is a skip. */
  applies(obs: Observation, env: CheckerEnv): boolean;
  check(obs: Observation, env: CheckerEnv): Violation | undefined | Promise<Violation | undefined>;
  /** Why the rule could not be judged when nothing applied (completed with the target's notes). */
  readonly notApplicable: string;
  /** Extra weight for the commands that make the rule's situation arise (default: the model's own mix). */
  readonly focus?: Partial<Record<CommandKind, number>>;
  /** Whether the rule needs globally networked pods: GPU pods are then asked for with global networking where the catalog allows it. */
  readonly globalPods?: boolean;
  /** Whether the rule speaks of pods mounting a network volume: left unjudged by the draws, it gets a run whose first pod mounts one. */
  readonly volumePods?: boolean;
  /** Whether the rule speaks of RUNNING pods: left unjudged by the draws (a slow start), it gets a run whose first pod is read until RUNNING. */
  readonly runningPods?: boolean;
  /** Whether the rule speaks of EXITED pods: with none observed, it gets a run whose first pod is started, stopped and read until EXITED. */
  readonly exitedPods?: boolean;
}

export type CommandKind = "create" | "get" | "list" | "advance" | "action" | "delete" | "patch";

export const exchangeOf = (obs: Observation): Exchange => (obs.kind === "view" ? obs.exchange : obs.response.exchange);
