/**
 * `podFindAndDeployOnDemand(input)`: a GPU pod, through the createPod validator and
 * `platform.pods.create`, as the REST path does.
 *
 * Mapping: cloudType ALL/SECURE/COMMUNITY (default ALL) → the pod's cloud; gpuTypeId, then each
 * of gpuTypeIdList, tried in that order until one places; gpuCount (default 1); storage as
 * mount-input.ts says; dataCenterId (null: any) → the one preferred data center;
 * allowedCudaVersions, minVcpuCount and minMemoryInGb → the scheduler's constraints;
 * containerRegistryAuthId → the pod's registry credential (yours);
 * globalNetwork → global networking. startSsh, startJupyter, supportPublicIp, countryCode,
 * minDownload, minUpload, stopAfter, terminateAfter, volumeKey and deployCost are accepted and
 * ignored: the model has no network speeds, countries or timers for them.
 */
import type { Catalog, GpuType } from "../../catalog/index.ts";
import type { CloudChoice } from "../../domain/gpu-pool.ts";
import type { PodRefusal } from "../../domain/pods/index.ts";
import { gpuTypesInCatalog } from "../../domain/resources/index.ts";
import { catalogIndex } from "../../domain/scheduler/index.ts";
import { containerFields } from "./container-input.ts";
import { GraphqlCode, userError } from "./error-codes.ts";
import { InputProblems } from "./input-problems.ts";
import type { PodFindAndDeployOnDemandInput } from "./input-types.ts";
import { mountsOf } from "./mount-input.ts";
import { foldVolumeMounts, globalVolumeIds } from "./volume-mounts-input.ts";
import { podObject, type PodObject } from "./pod-object.ts";
import { podRefusalError } from "./pod-refusal.ts";
import type { ResolverContext } from "./resolver-context.ts";
import { validateAsCreatePod } from "./rest-validation.ts";

const MUTATION = "podFindAndDeployOnDemand";

const nonNull = <T>(x: T | null | undefined): x is T => x !== null && x !== undefined;

/**
 * gpuTypeId first, then gpuTypeIdList, without repeats. The list is a preference (Flash tasks send
 * every device of a pool, or every device for "any GPU"): the platform's GPU types the catalog does
 * not hold are left out of it, as platform-places.ts says; gpuTypeId is taken as sent.
 */
export function gpuTypeIdsOf(input: PodFindAndDeployOnDemandInput, catalog: Catalog, problems: InputProblems): string[] {
  const listed = gpuTypesInCatalog((input.gpuTypeIdList ?? []).filter(nonNull), catalog);
  if (!listed.ok) problems.add("gpuTypeIdList", `gpuTypeIdList: ${listed.message}.`);
  return [...new Set([input.gpuTypeId, ...(listed.ok ? listed.ids : [])].filter(nonNull))];
}

function checkGpuFields(input: PodFindAndDeployOnDemandInput, ctx: ResolverContext, ids: readonly string[], problems: InputProblems): GpuType[] {
  const index = catalogIndex(ctx.platform.catalog);
  // A gpuTypeIdList that named only unknown types was refused already (gpuTypeIdsOf).
  if (ids.length === 0 && (input.gpuTypeIdList ?? []).length === 0) {
    problems.add("gpuTypeId", 'No GPU type was named; send gpuTypeId (an id listed by gpuTypes { id }, e.g. "NVIDIA GeForce RTX 4090") or gpuTypeIdList. For a CPU pod use deployCpuPod.');
  }
  const types: GpuType[] = [];
  for (const id of ids) {
    const type = index.gpuType.get(id);
    if (type) types.push(type);
    else problems.add("gpuTypeId", `${JSON.stringify(id)} is not a GPU type; send an id listed by gpuTypes { id }, e.g. "NVIDIA GeForce RTX 4090".`);
  }
  const count = input.gpuCount ?? 1;
  if (count < 1) problems.add("gpuCount", `gpuCount is ${count}; send a whole number of GPUs, 1 or more (the default is 1).`);
  for (const key of ["minVcpuCount", "minMemoryInGb"] as const) {
    const v = input[key];
    if (v != null && v < 0) problems.add(key, `${key} is ${v}; send 0 or more, or leave it out.`);
  }
  if (input.dataCenterId && !index.dataCenter.has(input.dataCenterId)) {
    problems.add("dataCenterId", `dataCenterId ${JSON.stringify(input.dataCenterId)} is not a data center; send an id listed by dataCenters { id }, or null to let the scheduler choose.`);
  }
  if (input.globalNetwork === true) {
    for (const t of types) {
      if (t.manufacturer.toLowerCase() !== "nvidia") {
        problems.add("globalNetwork", `globalNetwork needs an NVIDIA GPU, and ${JSON.stringify(t.id)} is made by ${t.manufacturer}; send false or an NVIDIA GPU type.`);
      }
    }
    const dc = input.dataCenterId ? index.dataCenter.get(input.dataCenterId) : undefined;
    if (dc && !dc.globalNetwork) {
      problems.add("globalNetwork", `globalNetwork needs a data center that supports it, and ${dc.id} does not; send false, or a dataCenterId whose dataCenters entry has globalNetwork true.`);
    }
  }
  return types;
}

export function podFindAndDeployOnDemand(args: { readonly input?: PodFindAndDeployOnDemandInput | null }, ctx: ResolverContext): PodObject {
  if (args.input === null || args.input === undefined) throw userError(GraphqlCode.BAD_USER_INPUT, `${MUTATION}: send input {gpuTypeId, imageName or templateId, ...}.`);
  const { platform, principal } = ctx;
  const problems = new InputProblems();
  const input = foldVolumeMounts(args.input, globalVolumeIds(ctx), platform.catalog, problems);
  const fields = containerFields(input, "gpu", platform.catalog, principal.accountId, problems);
  const ids = gpuTypeIdsOf(input, platform.catalog, problems);
  checkGpuFields(input, ctx, ids, problems);
  const mounts = mountsOf(fields, input, "gpu", platform.catalog, principal.accountId, problems);
  if (!problems.empty) throw problems.toError(MUTATION);

  const cloud: CloudChoice = input.cloudType ?? "ALL";
  const count = input.gpuCount ?? 1;
  const body: Record<string, unknown> = {
    name: fields.name,
    image: fields.image,
    ...(fields.args !== undefined ? { args: fields.args } : {}),
    ...(fields.disk !== undefined ? { disk: fields.disk } : {}),
    ...(fields.ports !== undefined ? { ports: fields.ports } : {}),
    env: fields.env,
    gpu: { id: ids[0], count },
    ...(mounts ? { mounts } : {}),
    // createPod knows SECURE and COMMUNITY; ALL is GraphQL's and goes to the scheduler directly.
    ...(cloud !== "ALL" ? { cloud } : {}),
    ...(input.dataCenterIds !== undefined && input.dataCenterIds.length > 0 ? { dataCenterIds: input.dataCenterIds } : input.dataCenterId ? { dataCenterIds: [input.dataCenterId] } : {}),
    // `containerRegistryAuthId: ""` is the client's "none", as in saveTemplate.
    ...(input.containerRegistryAuthId ? { registry: input.containerRegistryAuthId } : {}),
    globalNetworking: input.globalNetwork === true,
  };
  const valid = validateAsCreatePod(platform, principal.accountId, body, problems);
  if (!valid) throw problems.toError(MUTATION);

  let refusal: PodRefusal | undefined;
  for (const id of ids) {
    const out = platform.pods.create(principal.accountId, {
      name: valid.name,
      image: valid.image,
      args: valid.args,
      disk: valid.disk,
      ports: valid.ports,
      env: valid.env,
      gpu: { id, count },
      mounts: valid.mounts,
      cloud,
      dataCenterIds: valid.dataCenterIds,
      globalNetworking: valid.globalNetworking,
      allowedCudaVersions: (input.allowedCudaVersions ?? []).filter(nonNull),
      ...(input.minVcpuCount != null ? { minVcpuCount: input.minVcpuCount } : {}),
      ...(input.minMemoryInGb != null ? { minMemoryInGb: input.minMemoryInGb } : {}),
      template: fields.template,
      registry: valid.registry,
    });
    if (out.ok) return podObject(out.pod, ctx.now, ctx.platform.gpuStock);
    refusal = out;
    // Only "no host for this type" moves on to the next type; any other refusal is final.
    if (out.code !== "no-capacity") break;
  }
  throw podRefusalError(refusal!, "");
}
