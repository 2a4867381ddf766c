/** Breakers of the rules of a pod's PATCH; each takes and gives a body with its pod. */
import type { RuleId } from "../rules/index.ts";
import type { UpdateCase } from "./arbitraries.ts";
import { copy, MOUNT_PATH, variant, type Draft } from "./breaker-helpers.ts";
import type { UpdatePodTarget } from "./validate-update-pod.ts";

export type UpdateBreaker = (c: UpdateCase) => UpdateCase;

function withPod(pod: UpdatePodTarget, body: Draft): UpdateCase {
  return { pod, body: body as UpdateCase["body"] };
}

/** The case moved to a CPU pod: no persistent mount, no global networking. */
function onCpuPod(c: UpdateCase): { pod: UpdatePodTarget; body: Draft } {
  const body = copy(c.body);
  delete body.globalNetworking;
  if (body.mounts?.persistent !== undefined) delete body.mounts;
  const pod: UpdatePodTarget = c.pod.mountKind === "persistent" ? { kind: "cpu", mountKind: "none" } : { ...c.pod, kind: "cpu" };
  return { pod, body };
}

const VOLUME = "vol-eu-ro-1";

export const updatePodBreakers: Readonly<Partial<Record<RuleId, UpdateBreaker>>> = {
  "pods.update.unknown-property": (c) => withPod(c.pod, { ...copy(c.body), [["cloud", "gpu", "id"][variant(c.body, 3)] as string]: "SECURE" }),
  "pods.update.field-type": (c) => withPod(c.pod, { ...copy(c.body), locked: "yes" }),
  "pods.update.name-min-length": (c) => withPod(c.pod, { ...copy(c.body), name: "" }),
  "pods.update.disk-minimum": (c) => withPod(c.pod, { ...copy(c.body), disk: 0 }),
  "pods.update.port-format": (c) => withPod(c.pod, { ...copy(c.body), ports: ["http"] }),
  "pods.update.env-string-values": (c) => withPod(c.pod, { ...copy(c.body), env: { DEBUG: true } }),
  "pods.update.persistent-size-minimum": (c) =>
    withPod({ kind: "gpu", mountKind: "persistent" }, { ...copy(c.body), mounts: { persistent: { size: 5, path: MOUNT_PATH } } }),
  "pods.update.network-max-items": (c) => {
    const volumeId = c.pod.volumeId ?? VOLUME;
    const entry = () => ({ volumeId, path: MOUNT_PATH });
    return withPod({ kind: c.pod.kind, mountKind: "network", volumeId }, { ...copy(c.body), mounts: { network: [entry(), entry()] } });
  },
  "pods.update.mounts-exclusive": (c) =>
    withPod(c.pod, {
      ...copy(c.body),
      mounts: { persistent: { size: 20, path: MOUNT_PATH }, network: [{ volumeId: c.pod.volumeId ?? VOLUME, path: MOUNT_PATH }] },
    }),
  "pods.update.network-empty-array": (c) => withPod(c.pod, { ...copy(c.body), mounts: { network: [] } }),
  "pods.update.mount-kind-fixed": (c) => {
    if (c.pod.mountKind !== "network") {
      return withPod(c.pod, { ...copy(c.body), mounts: { network: [{ volumeId: VOLUME, path: MOUNT_PATH }] } });
    }
    return withPod({ kind: "gpu", mountKind: "network", volumeId: c.pod.volumeId ?? VOLUME }, {
      ...copy(c.body),
      mounts: { persistent: { size: 20, path: MOUNT_PATH } },
    });
  },
  "pods.update.volume-id-immutable": (c) =>
    withPod({ kind: c.pod.kind, mountKind: "network", volumeId: "vol-a" }, { ...copy(c.body), mounts: { network: [{ volumeId: "vol-b", path: MOUNT_PATH }] } }),
  "pods.update.mount-partial-entry": (c) => {
    if (c.pod.mountKind === "persistent") return withPod(c.pod, { ...copy(c.body), mounts: { persistent: { size: 20 } } });
    const volumeId = c.pod.volumeId ?? VOLUME;
    return withPod({ kind: c.pod.kind, mountKind: "network", volumeId }, { ...copy(c.body), mounts: { network: [{ path: MOUNT_PATH }] } });
  },
  "pods.update.persistent-on-cpu": (c) => {
    const { pod, body } = onCpuPod(c);
    body.mounts = { persistent: { size: 20, path: MOUNT_PATH } };
    return withPod(pod, body);
  },
  "pods.update.global-networking-nvidia": (c) => {
    const { pod, body } = onCpuPod(c);
    body.globalNetworking = true;
    return withPod(pod, body);
  },
};

export function breakUpdateRule(ruleId: RuleId, c: UpdateCase): UpdateCase {
  const breaker = updatePodBreakers[ruleId];
  if (breaker === undefined) throw new RangeError(`No PATCH breaker for rule "${ruleId}".`);
  return breaker(c);
}
