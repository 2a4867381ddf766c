/**
 * Deploying pods through `podFindAndDeployOnDemand` with the input fields of the spec's table,
 * on GPU types taken from the target's own catalog, and removing them afterwards.
 *
 * Cleanup is best effort and never judged: `podTerminate` is choices.md's, not the spec's, so
 * when it fails the REST paths of choices.md are tried (DELETE, then the terminate action); a
 * foreign target may have neither, and then the pod stays.
 */
import type { CheckContext } from "../../check.ts";
import { TargetError } from "../../errors.ts";
import { podActionRequest, podDeleteRequest } from "../../target-facts/index.ts";
import { candidatesFor, gpuCandidates, type GpuCandidate } from "./gpu-candidates.ts";
import { GqlEnum, gqlString, gqlValue, type GqlValue } from "./graphql-literal.ts";
import { errorText, gql, rootObject, type GqlAnswer } from "./graphql-request.ts";
import { nonEmptyString } from "./json-shape.ts";
import { isCapacityRefusal } from "./refusal.ts";

/** The input of podFindAndDeployOnDemand: the spec's table, `cloudType` as it is used (ALL). */
export interface DeployFields {
  readonly gpuTypeId: string;
  readonly gpuCount: number;
  readonly name: string;
  readonly imageName: string;
  readonly volumeInGb?: number;
  readonly containerDiskInGb?: number;
  readonly minVcpuCount?: number;
  readonly minMemoryInGb?: number;
  readonly dockerArgs?: string;
  readonly ports?: string;
  readonly volumeMountPath?: string;
  readonly env?: readonly (readonly [string, string])[];
  readonly allowedCudaVersions?: readonly string[];
}

/** The operation's selectable result fields, as the spec's table lists them. */
export const DEPLOY_SELECTION = "id imageName env machineId machine { podHostId }";

export const DEPLOY = "podFindAndDeployOnDemand";

export function deployDocument(f: DeployFields, selection = DEPLOY_SELECTION): string {
  const input: Record<string, GqlValue | undefined> = {
    cloudType: new GqlEnum("ALL"),
    gpuCount: f.gpuCount,
    volumeInGb: f.volumeInGb,
    containerDiskInGb: f.containerDiskInGb,
    minVcpuCount: f.minVcpuCount,
    minMemoryInGb: f.minMemoryInGb,
    gpuTypeId: f.gpuTypeId,
    name: f.name,
    imageName: f.imageName,
    dockerArgs: f.dockerArgs,
    ports: f.ports,
    volumeMountPath: f.volumeMountPath,
    env: f.env?.map(([key, value]) => ({ key, value })),
    allowedCudaVersions: f.allowedCudaVersions,
  };
  return `mutation { ${DEPLOY}(input: ${gqlValue(input)}) { ${selection} } }`;
}

export interface Deployed {
  readonly kind: "deployed";
  readonly answer: GqlAnswer;
  /** Undefined when the successful answer carries no id: a failure of the fields rule. */
  readonly podId: string | undefined;
  readonly fields: DeployFields;
}

export interface Refused {
  readonly kind: "refused";
  /** Every refusal met, in order. */
  readonly answers: readonly GqlAnswer[];
  /** True when every refusal spoke of capacity (never a rule failure). */
  readonly capacity: boolean;
  readonly reason: string;
}

export type DeployOutcome = Deployed | Refused;

/** One deploy; `podId` when the answer carries the created pod's id. */
export async function deployOnce(ctx: CheckContext, fields: DeployFields, selection = DEPLOY_SELECTION): Promise<{ answer: GqlAnswer; podId?: string }> {
  const answer = await gql(ctx, deployDocument(fields, selection));
  const id = rootObject(answer, DEPLOY)?.id;
  return { answer, ...(nonEmptyString(id) ? { podId: id } : {}) };
}

/** How many GPU types a check tries before it calls the platform out of capacity. */
export const MAX_GPU_TYPES_TRIED = 3;

/**
 * Deploys on the first GPU type that takes the pod, trying at most MAX_GPU_TYPES_TRIED types
 * that offer `gpuCount` GPUs. A pod that an answer created despite an error is removed.
 */
export async function deployOnSomeGpu(
  ctx: CheckContext,
  gpuCount: number,
  make: (gpuTypeId: string) => DeployFields,
  options: { readonly candidates?: readonly GpuCandidate[]; readonly selection?: string } = {},
): Promise<DeployOutcome> {
  const all = options.candidates ?? (await gpuCandidates(ctx));
  const tried = candidatesFor(all, gpuCount).slice(0, MAX_GPU_TYPES_TRIED);
  if (tried.length === 0) return { kind: "refused", answers: [], capacity: true, reason: "the target's gpuTypes lists no GPU type to deploy on" };
  const answers: GqlAnswer[] = [];
  for (const gpu of tried) {
    const fields = make(gpu.id);
    const { answer, podId } = await deployOnce(ctx, fields, options.selection);
    if (answer.ok) return { kind: "deployed", answer, podId, fields };
    if (podId) await removePod(ctx, podId);
    answers.push(answer);
  }
  const capacity = answers.every(isCapacityRefusal);
  const last = answers[answers.length - 1];
  return {
    kind: "refused",
    answers,
    capacity,
    reason: `no pod could be deployed with ${gpuCount} GPU(s) on ${tried.map((g) => JSON.stringify(g.id)).join(", ")}: ${errorText(last).slice(0, 300)}`,
  };
}

/** Removes a pod; never judged, never throws (a cleanup must not mask the verdict). */
export async function removePod(ctx: CheckContext, podId: string): Promise<void> {
  try {
    const answer = await gql(ctx, `mutation { podTerminate(input: {podId: ${gqlString(podId)}}) }`);
    if (answer.ok) return;
    const delete_ = podDeleteRequest(ctx, podId);
    if (delete_) {
      const del = await ctx.client.request(delete_);
      if ((del.status >= 200 && del.status < 300) || del.status === 404) return;
    }
    await ctx.client.request(podActionRequest(ctx, podId, "terminate"));
  } catch (err) {
    if (!(err instanceof TargetError)) throw err;
  }
}
