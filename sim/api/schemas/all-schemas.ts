/**
 * Every named record schema, in one list: the validator registers them all (records refer to one
 * another by `$ref`), and the OpenAPI document turns each into a component.
 */
import type { TSchema } from "@sinclair/typebox";
import { CpuCatalog, CpuCatalogEntry, DataCenterCatalog, DataCenterCatalogEntry, GpuCatalog, GpuCatalogEntry } from "./catalog.ts";
import { Cloud } from "./cloud.ts";
import { ContainerConfig } from "./container-config.ts";
import { CpuConfig, CreateCpuConfig } from "./cpu-config.ts";
import { CreatePodRequest } from "./create-pod-request.ts";
import { ErrorResponse } from "./error-response.ts";
import { CreateGpuConfig, GpuConfig } from "./gpu-config.ts";
import {
  GraphqlDataEnvelope, GraphqlErrorEnvelope, GraphqlGpuType, GraphqlLowestPrice, GraphqlPod, GraphqlPodRuntime, StockStatus,
} from "./graphql.ts";
import { HealthResponse } from "./health-response.ts";
import { CancelResponse, JobSubmitResponse, RetryResponse, RunsyncResponse } from "./job-responses.ts";
import { JobStatus } from "./job-status.ts";
import { JobPolicy, JobSubmitRequest } from "./job-submit-request.ts";
import { Job } from "./job.ts";
import { CreateMounts, CreateNetworkMount, CreatePersistentMount, Mounts, NetworkMount, PersistentMount } from "./mounts.ts";
import { PodActionRequest } from "./pod-action-request.ts";
import { PodAction } from "./pod-action.ts";
import { PodGlobalNetworking } from "./pod-global-networking.ts";
import { PodList } from "./pod-list.ts";
import { PodRuntime } from "./pod-runtime.ts";
import { PodStatus } from "./pod-status.ts";
import { Pod } from "./pod.ts";
import { PurgeResponse } from "./purge-response.ts";
import { StreamChunk, StreamMetrics, StreamResponse } from "./stream.ts";
import { UpdatePodRequest } from "./update-pod-request.ts";

export const allSchemas: readonly TSchema[] = [
  // Pods (REST v2)
  Cloud, PodStatus, PodAction, ContainerConfig, GpuConfig, CreateGpuConfig, CpuConfig, CreateCpuConfig,
  PersistentMount, NetworkMount, Mounts, CreatePersistentMount, CreateNetworkMount, CreateMounts,
  PodGlobalNetworking, PodRuntime, Pod, PodList, CreatePodRequest, UpdatePodRequest, PodActionRequest, ErrorResponse,
  // Job endpoints
  JobStatus, Job, JobPolicy, JobSubmitRequest, JobSubmitResponse, RunsyncResponse, CancelResponse, RetryResponse,
  HealthResponse, PurgeResponse, StreamMetrics, StreamChunk, StreamResponse,
  // Catalog (choices.md)
  CpuCatalogEntry, CpuCatalog, DataCenterCatalogEntry, DataCenterCatalog, GpuCatalogEntry, GpuCatalog,
  // GraphQL
  StockStatus, GraphqlPodRuntime, GraphqlPod, GraphqlLowestPrice, GraphqlGpuType, GraphqlDataEnvelope, GraphqlErrorEnvelope,
];

/**
 * Records whose shape comes from choices.md, not from the spec: the conformance suite checks
 * them only under the strict profile.
 */
export const choicesSchemaIds: ReadonlySet<string> = new Set(
  [PodList, PodActionRequest, UpdatePodRequest, JobPolicy, StreamResponse, CpuCatalogEntry, CpuCatalog,
    DataCenterCatalogEntry, DataCenterCatalog, GpuCatalogEntry, GpuCatalog, GraphqlErrorEnvelope].map((s) => s.$id as string),
);
