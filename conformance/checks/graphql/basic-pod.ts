/**
 * The pod most checks need: a basic deploy (name, image, keep-alive args, one port, env) on the
 * first of the target's GPU types that takes it, handed to a judge and removed afterwards
 * whatever the judge found.
 */
import type { CheckContext } from "../../check.ts";
import { deployOnSomeGpu, removePod, type Deployed, type DeployOutcome } from "./deploy.ts";
import { gpuCandidates, gpuCountFor } from "./gpu-candidates.ts";
import { basicFields, type BasicDeploy } from "./inputs.ts";
import { Inconclusive, type ProbeResult } from "./property.ts";

/** An image as sent, or the same reference with the registry's default prefix made explicit. */
export function sameImage(sent: string, got: unknown): boolean {
  return typeof got === "string" && (got === sent || got === `docker.io/${sent}` || got === `docker.io/library/${sent}`);
}

/** Deploys a basic pod for one run, hands it to `judge`, and removes it whatever happens. */
export async function withBasicPod(
  ctx: CheckContext,
  d: BasicDeploy,
  judge: (pod: Deployed) => Promise<ProbeResult>,
  onRefused: (outcome: Extract<DeployOutcome, { kind: "refused" }>) => ProbeResult = (o) => new Inconclusive(o.reason),
): Promise<ProbeResult> {
  const candidates = await gpuCandidates(ctx);
  if (candidates.length === 0) return new Inconclusive("the target's gpuTypes lists no GPU type to deploy on");
  const count = gpuCountFor(candidates, d.countPick);
  const outcome = await deployOnSomeGpu(ctx, count, (id) => basicFields(d, id, count), { candidates });
  if (outcome.kind === "refused") return onRefused(outcome);
  try {
    return await judge(outcome);
  } finally {
    if (outcome.podId) await removePod(ctx, outcome.podId);
  }
}
