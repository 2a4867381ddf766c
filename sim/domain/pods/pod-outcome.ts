/**
 * What a pod operation answers. Refusals a client can provoke are values with a stable `code`
 * and the HTTP status choices.md gives them (404 unknown pod, 409 action not allowed, the host's
 * GPUs taken meanwhile); sim/api renders them as problem+json. Statuses the spec and choices.md
 * leave open (no capacity, the account's pod limit) are the emulator's choices, named here so the
 * API layer can map them differently if it must.
 */
import type { NoFitReason } from "../scheduler/index.ts";
import type { PodRecord } from "./pod-record.ts";

export type PodRefusalCode =
  /** No pod with that id in the account (or it was dropped after its retention). 404. */
  | "not-found"
  /** The action is not in the status's `actions` list. 409. */
  | "not-allowed"
  /** stop or restart of a locked pod. 409. */
  | "locked"
  /** start of a stopped pod whose host's GPUs (or vCPUs) were taken meanwhile. 409. */
  | "host-full"
  /** The scheduler found no host ("no instances available"). 409, a choice. */
  | "no-capacity"
  /** A request the validator should have refused (unknown volume, a mount of another kind ...). 400. */
  | "bad-request"
  /** The account's pod limit or the registry's bound. 409, a choice. */
  | "pod-limit";

export const POD_REFUSAL_STATUS: Readonly<Record<PodRefusalCode, number>> = Object.freeze({
  "not-found": 404,
  "not-allowed": 409,
  locked: 409,
  "host-full": 409,
  "no-capacity": 409,
  "bad-request": 400,
  "pod-limit": 409,
});

export const HOST_FULL_GPU_MESSAGE = "not enough free GPUs on the host machine";
export const HOST_FULL_CPU_MESSAGE = "not enough free vCPUs or memory on the host machine";

export interface PodRefusal {
  readonly ok: false;
  readonly code: PodRefusalCode;
  readonly status: number;
  readonly message: string;
  /** For no-capacity: which of the scheduler's two cases it was. */
  readonly reason?: NoFitReason;
}

export interface PodSuccess {
  readonly ok: true;
  readonly pod: PodRecord;
}

export type PodOutcome = PodSuccess | PodRefusal;

export function refuse(code: PodRefusalCode, message: string, reason?: NoFitReason): PodRefusal {
  return reason === undefined
    ? { ok: false, code, status: POD_REFUSAL_STATUS[code], message }
    : { ok: false, code, status: POD_REFUSAL_STATUS[code], message, reason };
}
