/**
 * The invariants every Pod record keeps, whatever the pod went through: one checker per rule of
 * sim/api/rules/pod-rules.ts, each judging one record at a time. A record that lacks the fields
 * a rule speaks of is left to the rules of those fields (schema and required-field checks): each
 * rule fails only for its own sentence.
 */
import { POD_ACTIONS, POD_STATUSES } from "../../../sim/api/schemas/index.ts";
import type { CheckerEnv, CommandKind, InvariantChecker, Observation, TrackedPod } from "./lifecycle-observation.ts";

type View = Readonly<Record<string, any>>;

interface ViewRule {
  applies(view: View, pod: TrackedPod, env: CheckerEnv): boolean;
  /** What is wrong, in words, or undefined. */
  problem(view: View, pod: TrackedPod, env: CheckerEnv): string | undefined;
  readonly notApplicable: string;
  readonly focus?: Partial<Record<CommandKind, number>>;
  readonly globalPods?: boolean;
  readonly volumePods?: boolean;
  readonly exitedPods?: boolean;
}

/** A checker of Pod records (whatever request answered them) from a rule on one record. */
function viewChecker(rule: ViewRule): InvariantChecker {
  return {
    notApplicable: rule.notApplicable,
    ...(rule.focus ? { focus: rule.focus } : {}),
    ...(rule.globalPods ? { globalPods: true } : {}),
    ...(rule.volumePods ? { volumePods: true } : {}),
    ...(rule.exitedPods ? { exitedPods: true } : {}),
    applies: (obs: Observation, env) => obs.kind === "view" && rule.applies(obs.view, obs.pod, env),
    check: (obs: Observation, env) => {
      if (obs.kind !== "view") return undefined;
      const problem = rule.problem(obs.view, obs.pod, env);
      return problem === undefined ? undefined : { expected: `pod ${obs.pod.label}: ${problem}` };
    },
  };
}

const show = (v: unknown): string => (v === undefined ? "absent" : JSON.stringify(v));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export const runtimeNullUnlessRunning = viewChecker({
  applies: (v) => typeof v.status === "string" && v.status !== "RUNNING",
  problem: (v) =>
    v.runtime === null
      ? undefined
      : `the pod is ${v.status}, so its runtime is null ("runtime: Required; live utilization; null when the pod is not RUNNING"); got runtime ${show(v.runtime)}`,
  notApplicable: "no pod record outside RUNNING was observed",
});

export const costZeroWhenStopped = viewChecker({
  applies: (v) => v.status === "EXITED" || v.status === "TERMINATED",
  problem: (v) =>
    v.cost === 0 ? undefined : `the pod is ${v.status}, so its cost is 0.0 ("cost: current cost in USD per hour; 0.0 when EXITED or TERMINATED"); got cost ${show(v.cost)}`,
  notApplicable: "no pod was observed EXITED or TERMINATED",
  focus: { action: 6, delete: 2 },
  // Both statuses are the rule's: a run that saw only TERMINATED pods gets one that stops a pod.
  exitedPods: true,
});

export const statusEnum = viewChecker({
  applies: () => true,
  problem: (v) =>
    (POD_STATUSES as readonly unknown[]).includes(v.status)
      ? undefined
      : `status is one of ${POD_STATUSES.join(", ")} (the spec's pod states); got ${show(v.status)}`,
  notApplicable: "no pod record was observed",
});

export const actionsEnum = viewChecker({
  applies: () => true,
  problem: (v) =>
    Array.isArray(v.actions) && v.actions.every((a: unknown) => (POD_ACTIONS as readonly unknown[]).includes(a))
      ? undefined
      : `actions is an array of PodAction values (${POD_ACTIONS.join(", ")}); got ${show(v.actions)}`,
  notApplicable: "no pod record was observed",
});

/** choices.md's table: the actions of each status. */
const ACTIONS_BY_STATUS: Readonly<Record<string, readonly string[]>> = {
  PROVISIONING: ["stop", "terminate"],
  STARTING: ["stop", "terminate"],
  RUNNING: ["stop", "restart", "terminate"],
  EXITED: ["start", "terminate"],
  ERROR: ["start", "terminate"],
  TERMINATED: [],
};

export function allowedActions(status: string): readonly string[] | undefined {
  return ACTIONS_BY_STATUS[status];
}

export const actionsMatchStatus = viewChecker({
  applies: (v) => typeof v.status === "string" && allowedActions(v.status) !== undefined,
  problem: (v) => {
    const want = allowedActions(v.status)!;
    const got = Array.isArray(v.actions) ? v.actions : undefined;
    const same = got !== undefined && got.length === want.length && want.every((a) => got.includes(a));
    return same ? undefined : `the pod is ${v.status}, so its actions are [${want.join(", ")}] (docs/choices.md's table); got ${show(v.actions)}`;
  },
  notApplicable: "no pod record with a known status was observed",
});

export const gpuXorCpu = viewChecker({
  applies: () => true,
  problem: (v, pod) => {
    const [own, other] = pod.kind === "gpu" ? ["gpu", "cpu"] : ["cpu", "gpu"];
    if (!isObject(v[own])) return `a ${pod.kind.toUpperCase()} pod carries \`${own}\` ("Present on ${own.toUpperCase()} pods"); got ${own} ${show(v[own])}`;
    if (other in v) return `a ${pod.kind.toUpperCase()} pod omits \`${other}\` ("omitted on ${own.toUpperCase()} pods"); got ${other} ${show(v[other])}`;
    return undefined;
  },
  notApplicable: "no pod record was observed",
});

export const globalNetworkingShape = viewChecker({
  applies: (v) => isObject(v.globalNetworking) && v.globalNetworking.enabled !== true,
  problem: (v) => {
    const gn = v.globalNetworking as Record<string, unknown>;
    const extra = ["ip", "internalDns"].filter((k) => k in gn);
    return extra.length === 0
      ? undefined
      : `globalNetworking carries ${extra.join(" and ")} only when enabled ("Present only when enabled"); got ${show(gn)}`;
  },
  notApplicable: "no pod record with globalNetworking was observed",
  focus: { patch: 3 },
  globalPods: true,
});

export const globalNetworkingEnabledDerived = viewChecker({
  applies: (v) => isObject(v.globalNetworking) && v.globalNetworking.enabled === true,
  problem: (v) => {
    const gn = v.globalNetworking as Record<string, unknown>;
    return typeof gn.ip === "string" && gn.ip !== ""
      ? undefined
      : `globalNetworking.enabled is true only when the pod has a global-network address ("Derived from whether the pod has an assigned global-network address"), so an enabled record carries its ip; got ${show(gn)}`;
  },
  notApplicable: "no pod with global networking enabled was observed (none of the target's GPU types and data centers gave one)",
  focus: { patch: 3 },
  globalPods: true,
});

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export const globalNetworkingDnsForm = viewChecker({
  applies: (v) => isObject(v.globalNetworking) && "internalDns" in v.globalNetworking,
  problem: (v, pod) => {
    const dns = (v.globalNetworking as Record<string, unknown>).internalDns;
    const form = new RegExp(`^${escape(pod.id)}\\.[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$`);
    return typeof dns === "string" && form.test(dns)
      ? undefined
      : `internalDns has the form \`<pod_id>.<internal_domain>\`, here "${pod.id}.<domain>"; got ${show(dns)}`;
  },
  notApplicable: "no pod record carried globalNetworking.internalDns (no globally networked pod was created)",
  focus: { patch: 3 },
  globalPods: true,
});

const networkVolumeOf = (v: View): string | undefined => {
  const net = isObject(v.mounts) ? v.mounts.network : undefined;
  return Array.isArray(net) && isObject(net[0]) && typeof net[0].volumeId === "string" ? net[0].volumeId : undefined;
};

export const networkVolumeSameDataCenter = viewChecker({
  applies: (v, _pod, env) => {
    const volume = networkVolumeOf(v);
    return volume !== undefined && typeof v.dataCenterId === "string" && env.volumeDataCenter(volume) !== undefined;
  },
  problem: (v, _pod, env) => {
    const volume = networkVolumeOf(v)!;
    const dc = env.volumeDataCenter(volume)!;
    return v.dataCenterId === dc
      ? undefined
      : `a pod mounting network volume ${volume} runs in that volume's data center ${dc} ("ID of an existing network volume in the same data center as the pod"); got dataCenterId ${show(v.dataCenterId)}`;
  },
  notApplicable: "no placed pod with a network mount of a volume whose data center the target names was observed",
  volumePods: true,
});

export const preferredDataCenter = viewChecker({
  applies: (v, pod) => Array.isArray(pod.body.dataCenterIds) && pod.body.dataCenterIds.length > 0 && typeof v.dataCenterId === "string",
  problem: (v, pod) =>
    pod.body.dataCenterIds.includes(v.dataCenterId)
      ? undefined
      : `a pod created with dataCenterIds ${JSON.stringify(pod.body.dataCenterIds)} is placed in one of them ("Preferred data centers"); got dataCenterId ${show(v.dataCenterId)}`,
  notApplicable: "no placed pod created with preferred data centers was observed",
  focus: { create: 6 },
});

/**
 * A RUNNING pod reports runtime metrics ("runtime metrics become available" on STARTING → RUNNING).
 * A target may fill them a moment after the status changes, so a record without them is read
 * again twice, a few seconds apart, before it counts.
 */
export const runtimeAvailableWhenRunning: InvariantChecker = {
  notApplicable: "no pod was observed RUNNING",
  focus: { advance: 6 },
  runningPods: true,
  applies: (obs) => obs.kind === "view" && obs.view.status === "RUNNING",
  check: async (obs, env) => {
    if (obs.kind !== "view" || isObject(obs.view.runtime)) return undefined;
    let last = obs.exchange;
    for (let i = 0; i < 2; i++) {
      const again = await env.reread(obs.pod, 2_000);
      last = again.exchange;
      if (!again.view || again.view.status !== "RUNNING" || isObject(again.view.runtime)) return undefined;
    }
    return {
      expected: `pod ${obs.pod.label}: a RUNNING pod reports runtime metrics ("container becomes healthy → RUNNING: runtime metrics become available"); runtime stayed null over three reads`,
      exchange: last,
    };
  },
};
