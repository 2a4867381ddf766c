/**
 * JSON Schemas of the GraphQL resource records (`myself`'s volumes, templates, registry
 * credentials, endpoints and keys), for tests and the conformance suite. As for the other
 * GraphQL records, every field is optional (an answer holds what the query selected); types are
 * enforced, and nullable where the schema's field is.
 */
import { Type, type TSchema } from "@sinclair/typebox";
import { Nullable, schemaId } from "../schemas/index.ts";

const opt = <T extends TSchema>(s: T) => Type.Optional(s);
const EnvPairs = Type.Array(Type.Object({ key: opt(Type.String({ minLength: 1 })), value: opt(Type.String()) }, { additionalProperties: false }));

export const GraphqlNetworkVolume = Type.Object(
  { id: opt(Type.String({ minLength: 1 })), name: opt(Type.String()), size: opt(Type.Integer({ minimum: 1 })), dataCenterId: opt(Type.String({ minLength: 1 })) },
  { $id: schemaId("GraphqlNetworkVolume"), additionalProperties: false },
);

export const GraphqlPodTemplate = Type.Object(
  {
    id: opt(Type.String({ minLength: 1 })),
    name: opt(Type.String()),
    imageName: opt(Type.String({ minLength: 1 })),
    dockerArgs: opt(Type.String()),
    containerDiskInGb: opt(Type.Integer({ minimum: 1 })),
    volumeInGb: opt(Type.Integer({ minimum: 0 })),
    volumeMountPath: opt(Type.String()),
    ports: opt(Type.String({ pattern: "^$|^[0-9]{1,5}/(http|tcp|udp)(,[0-9]{1,5}/(http|tcp|udp))*$" })),
    env: opt(EnvPairs),
    isServerless: opt(Type.Boolean()),
    isPublic: opt(Type.Boolean()),
    readme: opt(Type.String()),
    category: opt(Type.String()),
    containerRegistryAuthId: opt(Nullable(Type.String())),
  },
  { $id: schemaId("GraphqlPodTemplate"), additionalProperties: false },
);

export const GraphqlRegistryAuth = Type.Object(
  { id: opt(Type.String({ minLength: 1 })), name: opt(Type.String()), username: opt(Type.String()) },
  { $id: schemaId("GraphqlRegistryAuth"), additionalProperties: false },
);

export const GraphqlEndpoint = Type.Object(
  {
    id: opt(Type.String({ minLength: 1 })),
    name: opt(Type.String()),
    templateId: opt(Nullable(Type.String())),
    template: opt(Nullable(Type.Object({}, { additionalProperties: true }))),
    gpuIds: opt(Type.String({ minLength: 1 })),
    gpuCount: opt(Type.Integer({ minimum: 1 })),
    networkVolumeId: opt(Nullable(Type.String())),
    networkVolume: opt(Nullable(Type.Object({ id: opt(Type.String()), name: opt(Type.String()), size: opt(Type.Integer()), dataCenterId: opt(Type.String()) }, { additionalProperties: false }))),
    locations: opt(Type.String()),
    idleTimeout: opt(Type.Integer({ minimum: 0 })),
    scalerType: opt(Type.Union([Type.Literal("QUEUE_DELAY"), Type.Literal("REQUEST_COUNT")])),
    scalerValue: opt(Type.Integer({ minimum: 1 })),
    workersMin: opt(Type.Integer({ minimum: 0 })),
    workersMax: opt(Type.Integer({ minimum: 0 })),
    workersStandby: opt(Type.Integer({ minimum: 0 })),
    executionTimeoutMs: opt(Type.Integer({ minimum: 1 })),
    flashBootType: opt(Type.Union([Type.Literal("OFF"), Type.Literal("FLASHBOOT")])),
    allowedCudaVersions: opt(Type.String({ pattern: "^([0-9]+\\.[0-9]+(,[0-9]+\\.[0-9]+)*)?$" })),
    aiKey: opt(Nullable(Type.String())),
    type: opt(Type.Literal("QB")),
    userId: opt(Type.String({ minLength: 1 })),
    version: opt(Type.Integer({ minimum: 0 })),
    env: opt(EnvPairs),
    createdAt: opt(Type.String({ format: "date-time" })),
  },
  { $id: schemaId("GraphqlEndpoint"), additionalProperties: false },
);

export const graphqlResourceSchemas: readonly TSchema[] = [GraphqlNetworkVolume, GraphqlPodTemplate, GraphqlRegistryAuth, GraphqlEndpoint];
