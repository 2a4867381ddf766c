/**
 * The mapped input goes through the same createPod validator as the REST path, so GraphQL and
 * REST refuse the same pods. The GraphQL checks before it (container-input.ts, mount-input.ts,
 * the deploy resolvers) already word the usual mistakes in GraphQL's field names; what reaches
 * this validator is rare, and its REST-worded sentence is kept with the GraphQL field it concerns.
 */
import type { Platform } from "../../domain/platform.ts";
import { validateCreatePod, type NormalizedCreatePod } from "../validate/index.ts";
import { createPodContext } from "./create-pod-context.ts";
import type { InputProblems } from "./input-problems.ts";

/** The GraphQL input field a createPod body pointer came from. */
const FIELD_OF: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\/name/, "name"],
  [/^\/image/, "imageName"],
  [/^\/args/, "dockerArgs"],
  [/^\/disk/, "containerDiskInGb"],
  [/^\/ports/, "ports"],
  [/^\/env/, "env"],
  [/^\/gpu\/count/, "gpuCount"],
  [/^\/gpu/, "gpuTypeId"],
  [/^\/cpu/, "instanceId"],
  [/^\/mounts\/persistent/, "volumeInGb"],
  [/^\/mounts\/network/, "networkVolumeId"],
  [/^\/cloud/, "cloudType"],
  [/^\/dataCenterIds/, "dataCenterId"],
  [/^\/globalNetworking/, "globalNetwork"],
  [/^\/registry/, "containerRegistryAuthId"],
];

export function graphqlFieldOf(pointer: string): string {
  return FIELD_OF.find(([re]) => re.test(pointer))?.[1] ?? "input";
}

export function validateAsCreatePod(platform: Platform, accountId: string, body: Record<string, unknown>, problems: InputProblems): NormalizedCreatePod | undefined {
  const result = validateCreatePod(body, createPodContext(platform, accountId));
  if (result.ok) return result.value;
  for (const v of result.violations) {
    const field = graphqlFieldOf(v.path);
    problems.add(field, `${v.message} (input field ${field})`, v.ruleId);
  }
  return undefined;
}
