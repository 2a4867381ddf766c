// The REST v2 operations other than the job endpoints and GraphQL: pods, catalog, the
// per-account resources and billing, by the route table's op names.
import type { OperationTable } from "../../op-context.ts";
import { billingEndpoints, billingPods } from "./billing.ts";
import { listCpuFlavors } from "./catalog-cpus.ts";
import { listDataCenters } from "./catalog-data-centers.ts";
import { listGpuTypes } from "./catalog-gpus.ts";
import { createPod } from "./create-pod.ts";
import { deletePod } from "./delete-pod.ts";
import { podAction } from "./pod-action.ts";
import { getPod, listPods } from "./read-pods.ts";
import { endpointOps, networkVolumeOps, registryOps, templateOps } from "./resource-ops.ts";
import { updatePod } from "./update-pod.ts";

export const restOperations: OperationTable = {
  listPods,
  createPod,
  getPod,
  updatePod,
  deletePod,
  podAction,
  listCpuFlavors,
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
};

export { restResourceSchemas, REST_RESOURCE_RESPONSES } from "./resource-schemas.ts";
export { createPodContext } from "./create-pod-context.ts";
