/**
 * The root value graphql-js executes against: one function per Query and Mutation field, each
 * called as `(args, context: ResolverContext)`. Built once; it holds no state of its own.
 */
import { dataCenters, gpuTypes } from "./catalog-queries.ts";
import { deployCpuPod } from "./deploy-cpu-pod.ts";
import { podFindAndDeployOnDemand } from "./deploy-gpu-pod.ts";
import { podResume, podStop, podTerminate } from "./pod-mutations.ts";
import { myself, pod } from "./pod-queries.ts";

export const rootValue = Object.freeze({
  // Query
  myself,
  pod,
  gpuTypes,
  dataCenters,
  // Mutation
  podFindAndDeployOnDemand,
  deployCpuPod,
  podResume,
  podStop,
  podTerminate,
});
