// The REST v2 operations other than the job endpoints and GraphQL: pods, catalog, the
// per-account resources and billing, by the route table's op names.
import type { OperationTable } from "../../op-context.ts";
import { billingEndpoints, billingPods } from "./billing.ts";
import { getCpuFlavor, listCpuFlavors } from "./catalog-cpus.ts";
import { listDataCenters } from "./catalog-data-centers.ts";
import { listGpuTypes } from "./catalog-gpus.ts";
import { createPod } from "./create-pod.ts";
import { deletePod } from "./delete-pod.ts";
import { podAction } from "./pod-action.ts";
import { getPod, listPods } from "./read-pods.ts";
import { endpointOps, networkVolumeOps, registryOps, templateOps } from "./resource-ops.ts";
import { updatePod } from "./update-pod.ts";
import { getGpuType } from "./catalog-gpu.ts";
import * as w from "./resource-writes.ts";
import { endpointWorkers, podLogs, workerLogs } from "./logs.ts";
import { hostPodLogs } from "./host-pod-logs.ts";
import { createPodV1, deletePodV1, getPodV1, listPodsV1, restartPodV1, startPodV1, stopPodV1 } from "./v1-pods.ts";
import { createSandbox, deleteSandbox, execSandbox, extendSandbox, getSandbox, listSandboxes, sandboxLogs, updateSandbox } from "./sandboxes.ts";

export const restOperations: OperationTable = {
  listSandboxes,
  createSandbox,
  getSandbox,
  updateSandbox,
  deleteSandbox,
  extendSandbox,
  execSandbox,
  sandboxLogs,
  listPods,
  createPod,
  getPod,
  updatePod,
  deletePod,
  podAction,
  listCpuFlavors,
  getCpuFlavor,
  listDataCenters,
  listGpuTypes,
  listNetworkVolumes: networkVolumeOps.list,
  getNetworkVolume: networkVolumeOps.get,
  listTemplates: templateOps.list,
  getTemplate: templateOps.get,
  listRegistries: registryOps.list,
  getRegistry: registryOps.get,
  listEndpoints: endpointOps.list,
  getEndpoint: endpointOps.get,
  billingPods,
  billingEndpoints,
  getGpuType,
  createNetworkVolume: w.createNetworkVolumeOp,
  updateNetworkVolume: w.updateNetworkVolumeOp,
  deleteNetworkVolume: w.deleteNetworkVolumeOp,
  createTemplate: w.createTemplateOp,
  updateTemplate: w.updateTemplateOp,
  deleteTemplate: w.deleteTemplateOp,
  createRegistry: w.createRegistryOp,
  updateRegistry: w.updateRegistryOp,
  deleteRegistry: w.deleteRegistryOp,
  createEndpoint: w.createEndpointOp,
  updateEndpoint: w.updateEndpointOp,
  deleteEndpoint: w.deleteEndpointOp,
  // The paths newer official clients call, same operations.
  listServerlessEndpoints: endpointOps.list,
  createServerlessEndpoint: w.createEndpointOp,
  getServerlessEndpoint: endpointOps.get,
  updateServerlessEndpoint: w.updateEndpointOp,
  deleteServerlessEndpoint: w.deleteEndpointOp,
  listVolumes: networkVolumeOps.list,
  createVolume: w.createVolumeOp,
  getVolume: networkVolumeOps.get,
  updateVolume: w.updateNetworkVolumeOp,
  deleteVolume: w.deleteNetworkVolumeOp,
  listRegistryCredentials: registryOps.list,
  createRegistryCredential: w.createRegistryOp,
  getRegistryCredential: registryOps.get,
  updateRegistryCredential: w.updateRegistryOp,
  deleteRegistryCredential: w.deleteRegistryOp,
  podLogs,
  hostPodLogs,
  listPodsV1,
  createPodV1,
  getPodV1,
  deletePodV1,
  stopPodV1,
  startPodV1,
  restartPodV1,
  listEndpointWorkers: endpointWorkers,
  listServerlessWorkers: endpointWorkers,
  workerLogs,
  getSshKeys: w.getSshKeysOp,
  putSshKeys: w.putSshKeysOp,
};

export { restResourceSchemas, REST_RESOURCE_RESPONSES } from "./resource-schemas.ts";
export { resourceRequestSchemas, REST_RESOURCE_WRITES } from "./resource-request-schemas.ts";
export { createPodContext } from "./create-pod-context.ts";
