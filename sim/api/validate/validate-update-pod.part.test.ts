import t from "tap";
import { validateUpdatePod, type UpdatePodTarget } from "./validate-update-pod.ts";

const gpuNone: UpdatePodTarget = { kind: "gpu", mountKind: "none" };
const gpuPersistent: UpdatePodTarget = { kind: "gpu", mountKind: "persistent" };
const cpuNetwork: UpdatePodTarget = { kind: "cpu", mountKind: "network", volumeId: "vol-1" };
const ids = (r: ReturnType<typeof validateUpdatePod>) => (r.ok ? [] : r.violations.map((v) => v.ruleId));

t.test("rule 1: omitted mounts or {} leave the mount unchanged", async (t) => {
  t.same(validateUpdatePod({ name: "x" }, cpuNetwork), { ok: true, value: { name: "x" } });
  t.same(validateUpdatePod({ mounts: {} }, cpuNetwork), { ok: true, value: {} });
  t.same(validateUpdatePod({}, gpuNone), { ok: true, value: {} });
});

t.test("rule 2: an explicit empty network array is 400", async (t) => {
  for (const pod of [gpuNone, gpuPersistent, cpuNetwork]) {
    t.match(validateUpdatePod({ mounts: { network: [] } }, pod), {
      status: 400,
      violations: [{ ruleId: "pods.update.network-empty-array", path: "/mounts/network" }],
    });
  }
});

t.test("rule 3: the mount kind is fixed at create (400)", async (t) => {
  const persistent = { mounts: { persistent: { size: 20, path: "/w" } } };
  const network = { mounts: { network: [{ volumeId: "vol-1", path: "/w" }] } };
  t.same(ids(validateUpdatePod(network, gpuPersistent)), ["pods.update.mount-kind-fixed"], "network on a persistent pod");
  t.same(ids(validateUpdatePod(persistent, { kind: "gpu", mountKind: "network", volumeId: "vol-1" })), ["pods.update.mount-kind-fixed"], "persistent on a network pod");
  t.same(ids(validateUpdatePod(persistent, gpuNone)), ["pods.update.mount-kind-fixed"], "a mount on a pod without mounts");
  t.same(ids(validateUpdatePod(network, gpuNone)), ["pods.update.mount-kind-fixed"]);
  t.match(validateUpdatePod(network, gpuNone), { status: 400, violations: [{ message: /created without mounts/ }] });
  t.same(validateUpdatePod({ mounts: { persistent: { size: 30, path: "/data" } } }, gpuPersistent), {
    ok: true,
    value: { mounts: { persistent: { size: 30, path: "/data" } } },
  }, "the same kind may change its path and size");
});

t.test("rule 4: a different volumeId is 400; the same one with a new path is fine", async (t) => {
  t.match(validateUpdatePod({ mounts: { network: [{ volumeId: "vol-2", path: "/w" }] } }, cpuNetwork), {
    status: 400,
    violations: [{ ruleId: "pods.update.volume-id-immutable", path: "/mounts/network/0/volumeId", message: /send "vol-1"/ }],
  });
  t.ok(validateUpdatePod({ mounts: { network: [{ volumeId: "vol-1", path: "/new" }] } }, cpuNetwork).ok);
});

t.test("rule 5: partial mount entries are 422", async (t) => {
  t.match(validateUpdatePod({ mounts: { persistent: { path: "/w" } } }, gpuPersistent), {
    status: 422,
    violations: [{ ruleId: "pods.update.mount-partial-entry", path: "/mounts/persistent/size" }],
  });
  t.match(validateUpdatePod({ mounts: { network: [{ path: "/w" }] } }, cpuNetwork), {
    status: 422,
    violations: [{ ruleId: "pods.update.mount-partial-entry", path: "/mounts/network/0/volumeId" }],
  });
});

t.test("only the mutable fields of choices.md are accepted", async (t) => {
  for (const key of ["gpu", "cpu", "cloud", "dataCenterIds", "id", "status"]) {
    t.match(validateUpdatePod({ [key]: "x" }, gpuNone), { status: 422, violations: [{ ruleId: "pods.update.unknown-property", path: `/${key}` }] });
  }
  const all = { name: "n", image: "i", args: "a", disk: 5, ports: ["22/tcp"], env: { A: "1" }, registry: null, locked: true, globalNetworking: false };
  t.same(validateUpdatePod(all, gpuNone), { ok: true, value: all });
});

t.test("CPU pods: no persistent mount, no global networking (400)", async (t) => {
  t.same(ids(validateUpdatePod({ globalNetworking: true }, cpuNetwork)), ["pods.update.global-networking-nvidia"]);
  t.ok(validateUpdatePod({ globalNetworking: true }, gpuNone).ok);
  const r = validateUpdatePod({ mounts: { persistent: { size: 20, path: "/w" } } }, { kind: "cpu", mountKind: "none" });
  t.same(ids(r).sort(), ["pods.update.mount-kind-fixed", "pods.update.persistent-on-cpu"]);
});
