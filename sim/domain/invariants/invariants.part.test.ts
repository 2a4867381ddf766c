import t from "tap";
import { Engine } from "../../core/index.ts";
import { GpuStock } from "../stock/index.ts";
import { smallCatalog, RTX4090 } from "../stock/test-catalog.ts";
import { testPlatform } from "../pods/test-platform.ts";
import type { PodRecord, PodRegistry } from "../pods/index.ts";
import { gpusConserved } from "./gpus-conserved.ts";
import { podActionsMatchStatus } from "./pod-actions.ts";
import { podCostRuntimeFollowStatus } from "./pod-cost-runtime.ts";
import { podHostFit } from "./pod-host-fit.ts";

/** A registry stand-in holding one doctored pod: the checkers read only `all()`. */
function withPod(pod: PodRecord): PodRegistry {
  return { all: () => [pod] } as unknown as PodRegistry;
}

t.test("each checker passes a healthy model and catches a broken one", async (t) => {
  const p = testPlatform(1, { pods: { failureRate: 0 } });
  const out = p.pods.create("acct-a", { name: "x", image: "i", gpu: { id: RTX4090, count: 2 } });
  if (!out.ok) throw new Error(out.message);
  const pod = out.pod;
  p.engine.runFor(60_000_000);
  t.same(p.violations(), []);
  const now = p.engine.now;

  // GPUs: a stock whose counters disagree with its leases.
  const engine = new Engine({ seed: 1 });
  const stock = new GpuStock(engine, smallCatalog(), engine.rng.fork("s"), { outsideIntensity: 0 });
  const lease = stock.acquire({ gpuTypeIds: [RTX4090], count: 1 })!;
  (stock as unknown as { platformGpus: Int32Array }).platformGpus[lease.hostIndex] = 5;
  t.match(gpusConserved.check({ stock }).join("\n"), /platform-used 5 but live leases hold 1/);

  // actions: a pod whose status is not its actions' status cannot be built through the registry,
  // so doctor a status the table does not know.
  t.match(podActionsMatchStatus.check({ pods: withPod({ ...pod, status: "PAUSED" as never }), now }).join(), /unknown status/);

  // cost/runtime: a RUNNING pod that has let go of its GPUs; an EXITED pod that holds them.
  t.match(podCostRuntimeFollowStatus.check({ pods: withPod({ ...pod, gpuLease: undefined }), now }).join(), /does not hold capacity/);
  t.match(podCostRuntimeFollowStatus.check({ pods: withPod({ ...pod, status: "EXITED" }), now }).join(), /EXITED holds capacity/);
  t.match(podCostRuntimeFollowStatus.check({ pods: withPod({ ...pod, startedAt: null }), now }).join(), /RUNNING with runtime null/);

  // host fit: the pod claims a CUDA version its host lacks, or another data center.
  t.match(podHostFit.check({ pods: withPod({ ...pod, allowedCudaVersions: ["9.0"] }), catalog: p.catalog }).join(), /CUDA/);
  const elsewhere = pod.dataCenterId === "CA-MTL-1" ? "US-TX-3" : "CA-MTL-1";
  t.match(podHostFit.check({ pods: withPod({ ...pod, dataCenterId: elsewhere }), catalog: p.catalog }).join(), new RegExp(`dataCenterId ${elsewhere}`));
  t.match(podHostFit.check({ pods: withPod({ ...pod, gpu: { ...pod.gpu!, count: 64 } }), catalog: p.catalog }).join(), /fewer than 64/);
});
