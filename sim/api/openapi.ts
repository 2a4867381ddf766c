/**
 * The OpenAPI 3.1 document of everything the emulator serves, generated from the route table and
 * the same JSON Schemas the server validates with (sim/api/schemas): each `cpsim:<Name>` schema
 * becomes the component `<Name>`, and every `$ref` to it points there.
 */
import type { TSchema } from "@sinclair/typebox";
import { JOB_TTL_RANGE, allSchemas } from "./schemas/index.ts";
import { SCHEMA_ID_PREFIX } from "./schemas/schema-helpers.ts";
import { routes, type RouteDef } from "./routes.ts";
import { REST_RESOURCE_RESPONSES, restResourceSchemas } from "./ops/rest/resource-schemas.ts";
import { LOG_MAX_TAIL } from "./ops/rest/logs.ts";
import { HOST_LOG_TYPES } from "./ops/rest/host-pod-logs.ts";
import { REST_RESOURCE_WRITES, resourceRequestSchemas } from "./ops/rest/resource-request-schemas.ts";
import { SANDBOX_OP_SCHEMAS, sandboxSchemas } from "./ops/rest/sandbox-schemas.ts";
import { V1_POD_OP_SCHEMAS, v1PodSchemas } from "./ops/rest/v1-pod-schemas.ts";

interface OpSchemas {
  readonly request?: string;
  /** Status → component name; `null` for a response without a body. */
  readonly responses: Readonly<Record<number, string | null>>;
}

/** What each operation takes and answers, by component name. Errors are ErrorResponse. */
const OP_SCHEMAS: Readonly<Record<string, OpSchemas>> = {
  listPods: { responses: { 200: "PodList" } },
  createPod: { request: "CreatePodRequest", responses: { 201: "Pod" } },
  getPod: { responses: { 200: "Pod" } },
  updatePod: { request: "UpdatePodRequest", responses: { 200: "Pod" } },
  deletePod: { responses: { 204: null } },
  podAction: { request: "PodActionRequest", responses: { 200: "Pod", 204: null } },
  listCpuFlavors: { responses: { 200: "CpuCatalog" } },
  listDataCenters: { responses: { 200: "DataCenterCatalog" } },
  listGpuTypes: { responses: { 200: "GpuCatalog" } },
  jobRun: { request: "JobSubmitRequest", responses: { 200: "JobSubmitResponse" } },
  jobRunsync: { request: "JobSubmitRequest", responses: { 200: "RunsyncResponse" } },
  jobStatus: { responses: { 200: "Job" } },
  jobStatusSync: { responses: { 200: "RunsyncResponse" } },
  jobStream: { responses: { 200: "StreamResponse" } },
  jobCancel: { responses: { 200: "CancelResponse" } },
  jobRetry: { responses: { 200: "RetryResponse" } },
  jobPurgeQueue: { responses: { 200: "PurgeResponse" } },
  jobHealth: { responses: { 200: "HealthResponse" } },
  graphql: { responses: { 200: "GraphqlDataEnvelope" } },
  graphqlGet: { responses: { 200: "GraphqlDataEnvelope" } },
  ...Object.fromEntries(Object.entries(REST_RESOURCE_RESPONSES).map(([op, name]) => [op, { responses: { 200: name } }])),
  ...REST_RESOURCE_WRITES,
  ...SANDBOX_OP_SCHEMAS,
  ...V1_POD_OP_SCHEMAS,
  // The same operations at the paths newer official clients call.
  listServerlessEndpoints: { responses: { 200: "EndpointList" } },
  createServerlessEndpoint: REST_RESOURCE_WRITES.createEndpoint!,
  getServerlessEndpoint: { responses: { 200: "Endpoint" } },
  updateServerlessEndpoint: REST_RESOURCE_WRITES.updateEndpoint!,
  deleteServerlessEndpoint: REST_RESOURCE_WRITES.deleteEndpoint!,
  listVolumes: { responses: { 200: "NetworkVolumeList" } },
  createVolume: { request: "CreateVolumeRequest", responses: { 201: "NetworkVolume" } },
  getVolume: { responses: { 200: "NetworkVolume" } },
  updateVolume: REST_RESOURCE_WRITES.updateNetworkVolume!,
  deleteVolume: REST_RESOURCE_WRITES.deleteNetworkVolume!,
  listRegistryCredentials: { responses: { 200: "RegistryList" } },
  createRegistryCredential: REST_RESOURCE_WRITES.createRegistry!,
  getRegistryCredential: { responses: { 200: "Registry" } },
  updateRegistryCredential: REST_RESOURCE_WRITES.updateRegistry!,
  deleteRegistryCredential: REST_RESOURCE_WRITES.deleteRegistry!,
  getGpuType: { responses: { 200: "GpuCatalogEntry" } },
  getCpuFlavor: { responses: { 200: "CpuCatalogEntry" } },
};

/** The routes answering text/event-stream. */
const LOG_OPS: ReadonlySet<string> = new Set(["podLogs", "workerLogs", "sandboxLogs"]);

const ERROR_STATUSES: Readonly<Record<string, readonly number[]>> = {
  bearer: [400, 401, 403, 404, 409, 413, 422, 429],
  graphql: [400, 401, 403, 429],
  none: [],
};

const componentName = (id: string) => id.slice(SCHEMA_ID_PREFIX.length);

/** A deep copy with `$id` dropped and `cpsim:` refs pointed at components. */
function toComponent(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toComponent);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === "$id") continue;
    if (k === "$ref" && typeof v === "string" && v.startsWith(SCHEMA_ID_PREFIX)) {
      out[k] = `#/components/schemas/${componentName(v)}`;
    } else {
      out[k] = toComponent(v);
    }
  }
  return out;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function operationObject(r: RouteDef) {
  const schemas = OP_SCHEMAS[r.op];
  const params = [...r.pattern.matchAll(/:([A-Za-z]+)/g)].map((m) => ({
    name: m[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  const query: object[] = [];
  if (r.op === "jobRunsync" || r.op === "jobStatusSync") {
    query.push({ name: "wait", in: "query", required: false, schema: { type: "integer", minimum: 1000, maximum: 300000, default: 90000 } });
  }
  if (r.op === "jobStatus" || r.op === "jobStatusSync") {
    query.push({ name: "ttl", in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: JOB_TTL_RANGE.maximum } });
  }
  const tailAndSince = [
    { name: "tail", in: "query", required: false, schema: { type: "integer", minimum: 0, maximum: LOG_MAX_TAIL, default: 100 } },
    { name: "since", in: "query", required: false, schema: { type: "string", format: "date-time" } },
  ];
  if (LOG_OPS.has(r.op)) query.push(...tailAndSince, { name: "source", in: "query", required: false, schema: { enum: ["container", "system"] } });
  if (r.op === "hostPodLogs") {
    query.push(
      { name: "type", in: "query", required: false, schema: { enum: [...HOST_LOG_TYPES], default: "all" } },
      { name: "stream", in: "query", required: false, schema: { enum: ["true", "false"], default: "false" } },
      ...tailAndSince,
    );
  }
  if (r.op === "listGpuTypes") query.push({ name: "cloud", in: "query", required: false, schema: { enum: ["SECURE", "COMMUNITY"], default: "SECURE" } });
  if (r.auth === "graphql") query.push({ name: "api_key", in: "query", required: false, schema: { type: "string" } });
  const responses: Record<string, object> = {};
  for (const [status, name] of Object.entries(schemas?.responses ?? { 200: null })) {
    responses[status] =
      name === null
        ? { description: "No content" }
        : { description: "Success", content: { "application/json": { schema: ref(name) } } };
  }
  if (LOG_OPS.has(r.op)) {
    responses["200"] = {
      description: 'Server-Sent Events, one per line: `id: N`, `data: {"ts", "source", "line"}`; resumed after Last-Event-ID. The stream ends after the lines there are.',
      content: { "text/event-stream": { schema: { type: "string" } } },
    };
  }
  if (r.op === "hostPodLogs") {
    const lines = { type: "array", items: { type: "string" } };
    responses["200"] = {
      description: 'Without stream: the lines of each source. With stream=true: Server-Sent Events, `data: {"ts", "source", "line"}`, ending after the lines there are.',
      content: {
        "application/json": { schema: { type: "object", required: ["container", "system"], properties: { container: lines, system: lines } } },
        "text/event-stream": { schema: { type: "string" } },
      },
    };
  }
  for (const status of ERROR_STATUSES[r.auth]) {
    responses[String(status)] = {
      description: "Error",
      content: {
        [r.auth === "graphql" ? "application/json" : "application/problem+json"]: {
          schema: ref(r.auth === "graphql" ? "GraphqlErrorEnvelope" : "ErrorResponse"),
        },
      },
    };
  }
  return {
    operationId: r.op,
    summary: r.summary,
    tags: [r.tag],
    ...(params.length + query.length > 0 ? { parameters: [...params, ...query] } : {}),
    ...(schemas?.request
      ? { requestBody: { required: true, content: { "application/json": { schema: ref(schemas.request) } } } }
      : {}),
    ...(r.auth === "none" ? { security: [] } : {}),
    responses,
  };
}

export interface OpenApiDocument {
  readonly openapi: "3.1.0";
  readonly info: Record<string, unknown>;
  readonly paths: Record<string, Record<string, unknown>>;
  readonly components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  readonly [key: string]: unknown;
}

/** Builds the document; `serverUrl` is the emulator's base URL when known. */
export function openApiDocument(version: string, serverUrl?: string, schemas: readonly TSchema[] = [...allSchemas, ...restResourceSchemas, ...resourceRequestSchemas, ...sandboxSchemas, ...v1PodSchemas]): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.pattern.replace(/:([A-Za-z]+)/g, "{$1}");
    (paths[path] ??= {})[r.method.toLowerCase()] = operationObject(r);
  }
  const components: Record<string, unknown> = {};
  for (const s of schemas) {
    if (typeof s.$id === "string") components[componentName(s.$id)] = toComponent(s);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "cpsim emulator: compute platform API",
      version,
      description: "REST v2, GraphQL and job endpoints of the simulated platform, served by `cpsim serve`.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer" },
        apiKeyQuery: { type: "apiKey", in: "query", name: "api_key" },
      },
    },
  };
}
