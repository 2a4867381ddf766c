/**
 * `deployCpuPod(input)`: a CPU pod. `instanceId` names the flavor and size as the platform's CPU
 * instance ids do, `<flavor>-<vCPUs>-<memory GB>` (`cpu3c-2-4`: flavor cpu3c, 2 vCPUs, 4 GB);
 * `<flavor>-<vCPUs>` is accepted too. Memory is derived from the flavor (the spec's rule 3), so a
 * memory figure that disagrees is refused with the id to send instead. The rest maps as for
 * podFindAndDeployOnDemand; CPU pods take no pod volume (the spec's rule 4), only networkVolumeId.
 * Without `instanceId` (the official Python client's documented `create_pod(name, image)` sends
 * none) the pod gets the catalog's first flavor at its smallest size (`cpu3c-2-4`): choices.md.
 */
import type { CpuFlavor } from "../../catalog/index.ts";
import type { CloudChoice } from "../../domain/gpu-pool.ts";
import { catalogIndex } from "../../domain/scheduler/index.ts";
import { containerFields } from "./container-input.ts";
import { InputProblems } from "./input-problems.ts";
import type { DeployCpuPodInput } from "./input-types.ts";
import { mountsOf } from "./mount-input.ts";
import { foldVolumeMounts, globalVolumeIds } from "./volume-mounts-input.ts";
import { podObject, type PodObject } from "./pod-object.ts";
import { podRefusalError } from "./pod-refusal.ts";
import type { ResolverContext } from "./resolver-context.ts";
import { validateAsCreatePod } from "./rest-validation.ts";

const MUTATION = "deployCpuPod";

const INSTANCE_ID = /^(.+?)-([0-9]+)(?:-([0-9]+))?$/;

export interface CpuInstance {
  readonly flavor: CpuFlavor;
  readonly vcpuCount: number;
}

/** The flavor and vCPU count of an instance id, or undefined with the problem recorded. */
export function parseInstanceId(instanceId: string, flavors: ReadonlyMap<string, CpuFlavor>, problems: InputProblems): CpuInstance | undefined {
  const example = "cpu3c-2-4 (flavor cpu3c, 2 vCPUs, 4 GB)";
  const m = INSTANCE_ID.exec(instanceId);
  const flavor = m ? flavors.get(m[1]!) : flavors.get(instanceId);
  if (!flavor) {
    problems.add("instanceId", `instanceId ${JSON.stringify(instanceId)} names no CPU flavor; send <flavor>-<vCPUs>-<memory GB> with a flavor of ${[...flavors.keys()].join(", ")}, e.g. ${example}.`);
    return undefined;
  }
  if (!m) {
    problems.add("instanceId", `instanceId ${JSON.stringify(instanceId)} names no size; send <flavor>-<vCPUs>-<memory GB>, e.g. ${flavor.id}-${flavor.vcpuCounts[0]}-${flavor.vcpuCounts[0]! * flavor.ramGbPerVcpu}.`);
    return undefined;
  }
  const vcpuCount = Number(m[2]);
  if (!flavor.vcpuCounts.includes(vcpuCount)) {
    const sizes = flavor.vcpuCounts.map((v) => `${flavor.id}-${v}-${v * flavor.ramGbPerVcpu}`).join(", ");
    problems.add("instanceId", `Flavor ${flavor.id} has no ${vcpuCount}-vCPU size; send one of ${sizes}.`);
    return undefined;
  }
  const memory = vcpuCount * flavor.ramGbPerVcpu;
  if (m[3] !== undefined && Number(m[3]) !== memory) {
    problems.add("instanceId", `Flavor ${flavor.id} with ${vcpuCount} vCPUs has ${memory} GB of memory, not ${m[3]}; send ${flavor.id}-${vcpuCount}-${memory}.`);
    return undefined;
  }
  return { flavor, vcpuCount };
}

/** The instance id of a deployCpuPod that names none: the first flavor's smallest size. */
export function defaultInstanceId(flavors: ReadonlyMap<string, CpuFlavor>): string {
  const flavor = [...flavors.values()][0];
  if (!flavor) return "";
  const vcpus = Math.min(...flavor.vcpuCounts);
  return `${flavor.id}-${vcpus}-${vcpus * flavor.ramGbPerVcpu}`;
}

export function deployCpuPod(args: { readonly input: DeployCpuPodInput }, ctx: ResolverContext): PodObject {
  const { platform, principal } = ctx;
  const index = catalogIndex(platform.catalog);
  const problems = new InputProblems();
  const input = foldVolumeMounts(args.input, globalVolumeIds(ctx), platform.catalog, problems);
  const fields = containerFields(input, "cpu", platform.catalog, principal.accountId, problems);
  const instance = parseInstanceId(input.instanceId ?? defaultInstanceId(index.cpuFlavor), index.cpuFlavor, problems);
  if (input.dataCenterId && !index.dataCenter.has(input.dataCenterId)) {
    problems.add("dataCenterId", `dataCenterId ${JSON.stringify(input.dataCenterId)} is not a data center; send an id listed by dataCenters { id }, or null to let the scheduler choose.`);
  }
  const mounts = mountsOf(fields, input, "cpu", platform.catalog, principal.accountId, problems);
  if (!problems.empty || !instance) throw problems.toError(MUTATION);

  const cloud: CloudChoice = input.cloudType ?? "ALL";
  const body: Record<string, unknown> = {
    name: fields.name,
    image: fields.image,
    ...(fields.args !== undefined ? { args: fields.args } : {}),
    ...(fields.disk !== undefined ? { disk: fields.disk } : {}),
    ...(fields.ports !== undefined ? { ports: fields.ports } : {}),
    env: fields.env,
    cpu: { id: instance.flavor.id, vcpuCount: instance.vcpuCount },
    ...(mounts ? { mounts } : {}),
    ...(cloud !== "ALL" ? { cloud } : {}),
    ...(input.dataCenterIds !== undefined && input.dataCenterIds.length > 0 ? { dataCenterIds: input.dataCenterIds } : input.dataCenterId ? { dataCenterIds: [input.dataCenterId] } : {}),
    // `containerRegistryAuthId: ""` is the client's "none", as in saveTemplate.
    ...(input.containerRegistryAuthId ? { registry: input.containerRegistryAuthId } : {}),
  };
  const valid = validateAsCreatePod(platform, principal.accountId, body, problems);
  if (!valid) throw problems.toError(MUTATION);

  const out = platform.pods.create(principal.accountId, {
    name: valid.name,
    image: valid.image,
    args: valid.args,
    disk: valid.disk,
    ports: valid.ports,
    env: valid.env,
    cpu: { id: instance.flavor.id, vcpuCount: instance.vcpuCount },
    mounts: valid.mounts,
    cloud,
    dataCenterIds: valid.dataCenterIds,
    template: fields.template,
    registry: valid.registry,
  });
  if (!out.ok) throw podRefusalError(out, "");
  return podObject(out.pod, ctx.now, ctx.platform.gpuStock);
}
