/**
 * The GraphQL pod fields' types, read from one pod object: shared by `conform`'s graphql.pod.types
 * and the proxy's judgement of every GraphQL answer. `env`'s KEY=value form is
 * graphql.env-key-value's and the runtime record graphql.runtime.types', so each fault is reported
 * under one rule only: here env must be a list of strings and runtime null or an object.
 */
import { schemaErrors } from "../support/schema.ts";
import { isObj, show, type Obj } from "./json-shape.ts";

export function podTypeProblems(where: string, pod: Obj): string[] {
  const { env, runtime, ...rest } = pod;
  const problems = schemaErrors("GraphqlPod", rest).map((e) => `${where}${e}`);
  if (env !== undefined && !(Array.isArray(env) && env.every((e) => typeof e === "string"))) problems.push(`${where}/env: ${show(env)} is not a list of strings`);
  if (runtime !== undefined && runtime !== null && !isObj(runtime)) problems.push(`${where}/runtime: ${show(runtime)} is neither null nor an object`);
  return problems;
}

/** The runtime members whose shape the sentence states (lists of objects, an object); the lenient profile judges only these. */
export const STATED_RUNTIME = /^\/(ports|gpus|container)(\/\d+)?:/;

/** The GPU type members whose type the sentence states; the lenient profile judges only these (id, displayName and memoryInGb are named without a type). */
export const STATED_GPU_TYPE = /^\/(secureCloud|communityCloud|lowestPrice\/uninterruptablePrice|lowestPrice\/availableGpuCounts(\/\d+)?):/;
