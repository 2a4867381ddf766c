/** Pod statuses a pod does not leave on its own towards RUNNING: waiting longer for it to run is pointless. */
export const SETTLED_POD_STATUSES: ReadonlySet<string> = new Set(["ERROR", "EXITED", "TERMINATED"]);
