/**
 * Pod statuses and the `actions` table of choices.md, which is both the Pod's `actions` list and
 * the rule for which action requests are allowed (anything else is a 409).
 */

export const POD_STATUSES = ["PROVISIONING", "STARTING", "RUNNING", "EXITED", "ERROR", "TERMINATED"] as const;
export type PodStatus = (typeof POD_STATUSES)[number];

export const POD_ACTIONS = ["start", "stop", "restart", "terminate"] as const;
export type PodAction = (typeof POD_ACTIONS)[number];

export const ACTIONS_BY_STATUS: Readonly<Record<PodStatus, readonly PodAction[]>> = Object.freeze({
  PROVISIONING: Object.freeze(["stop", "terminate"] as const),
  STARTING: Object.freeze(["stop", "terminate"] as const),
  RUNNING: Object.freeze(["stop", "restart", "terminate"] as const),
  EXITED: Object.freeze(["start", "terminate"] as const),
  ERROR: Object.freeze(["start", "terminate"] as const),
  TERMINATED: Object.freeze([] as const),
});

/** A fresh copy of the actions of a status (views hand out arrays callers may keep). */
export function actionsFor(status: PodStatus): PodAction[] {
  // `?? []`: a status outside the table (only a corrupted record) lists nothing rather than throwing.
  return [...(ACTIONS_BY_STATUS[status] ?? [])];
}

export function isActionAllowed(status: PodStatus, action: PodAction): boolean {
  return ACTIONS_BY_STATUS[status].includes(action);
}

/**
 * Statuses in which a pod holds its GPUs (or vCPUs) on its host. ERROR keeps them: the container
 * failed, but the machine stays rented until the user stops or terminates the pod (and so the pod
 * keeps costing money, as the spec zeroes cost only for EXITED and TERMINATED).
 */
export const HOLDING_STATUSES: ReadonlySet<PodStatus> = new Set(["PROVISIONING", "STARTING", "RUNNING", "ERROR"]);

/** GraphQL `desiredStatus`: what the user asked for, not where the container is. */
export function desiredStatusOf(status: PodStatus): "RUNNING" | "EXITED" | "TERMINATED" {
  if (status === "EXITED") return "EXITED";
  if (status === "TERMINATED") return "TERMINATED";
  return "RUNNING";
}
