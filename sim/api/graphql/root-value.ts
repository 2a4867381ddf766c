/**
 * The root value graphql-js executes against: one function per Query and Mutation field, each
 * called as `(args, context: ResolverContext)`. Built once; it holds no state of its own.
 */
import { dataCenters, gpuTypes } from "./catalog-queries.ts";
import { deployCpuPod } from "./deploy-cpu-pod.ts";
import { podFindAndDeployOnDemand } from "./deploy-gpu-pod.ts";
import type { ResolverContext } from "./resolver-context.ts";
import { podResume, podStop, podTerminate } from "./pod-mutations.ts";
import { myself, pod } from "./pod-queries.ts";
import * as apps from "./apps-resolvers.ts";
import * as resources from "./resource-resolvers.ts";

export const rootValue = Object.freeze({
  // Query; `myself` with the account's resources beside its pods.
  myself: (args: unknown, ctx: ResolverContext) => ({ ...myself(args, ctx), ...resources.userResources(ctx), ...apps.userApps(ctx) }),
  pod,
  gpuTypes,
  dataCenters,
  cpuFlavors: apps.cpuFlavors,
  flashAppByName: apps.flashAppByName,
  flashEnvironmentByName: apps.flashEnvironmentByName,
  flashAuthRequestStatus: apps.flashAuthRequestStatus,
  // Mutation
  podFindAndDeployOnDemand,
  deployCpuPod,
  podResume,
  podStop,
  podTerminate,
  updateUserSettings: resources.updateUserSettings,
  saveTemplate: resources.saveTemplate,
  deleteTemplate: resources.deleteTemplate_,
  saveEndpoint: resources.saveEndpoint,
  updateEndpointTemplate: resources.updateEndpointTemplate,
  deleteEndpoint: resources.deleteEndpoint_,
  saveRegistryAuth: resources.saveRegistryAuth,
  updateRegistryAuth: resources.updateRegistryAuth,
  deleteRegistryAuth: resources.deleteRegistryAuth,
  createNetworkVolume: resources.createNetworkVolume_,
  updateNetworkVolume: resources.updateNetworkVolume_,
  deleteNetworkVolume: resources.deleteNetworkVolume_,
  secretCreate: apps.secretCreate,
  secretDelete: apps.secretDelete,
  globalStoreBucketCreate: apps.globalStoreBucketCreate,
  createFlashApp: apps.createFlashApp,
  deleteFlashApp: apps.deleteFlashApp,
  createFlashEnvironment: apps.createFlashEnvironment,
  deleteFlashEnvironment: apps.deleteFlashEnvironment,
  createFlashAuthRequest: apps.createFlashAuthRequest,
  prepareFlashArtifactUpload: apps.prepareFlashArtifactUpload,
  finalizeFlashArtifactUpload: apps.finalizeFlashArtifactUpload,
  deployBuildToEnvironment: apps.deployBuildToEnvironment,
});
