/**
 * The schema's resource part, as SDL extensions of schema-sdl.ts: `myself`'s SSH keys, network
 * volumes, endpoints, templates and registry credentials, and the mutations that change them,
 * with the field names and input shapes the official clients send (the real platform's,
 * `RegistryAuth` and all). Inputs take every field those clients write; unknown-to-the-model
 * ones (startSsh, allowedCudaVersions as a string ...) are read and ignored.
 */
export const resourceSchemaSdl = /* GraphQL */ `
type EnvironmentVariable { key: String value: String }

type NetworkVolume { id: String! name: String size: Int dataCenterId: String }

type PodTemplate {
  id: String!
  name: String
  imageName: String
  dockerArgs: String
  containerDiskInGb: Int
  volumeInGb: Int
  volumeMountPath: String
  "Comma-separated port/protocol entries, as the clients write them."
  ports: String
  env: [EnvironmentVariable]
  isServerless: Boolean
  isPublic: Boolean
  readme: String
  category: String
  containerRegistryAuthId: String
}

type RegistryAuth { id: String! name: String username: String }

"""
A serverless endpoint the account owns. gpuIds, locations: comma-separated, as sent. idleTimeout
in seconds. type: always QB (queue-based). aiKey: always null (the model has no per-endpoint key).
"""
type Endpoint {
  id: String!
  name: String
  templateId: String
  template: PodTemplate
  gpuIds: String
  gpuCount: Int
  networkVolumeId: String
  networkVolume: NetworkVolume
  locations: String
  idleTimeout: Int
  scalerType: String
  scalerValue: Int
  workersMin: Int
  workersMax: Int
  workersStandby: Int
  executionTimeoutMs: Int
  flashBootType: String
  "CUDA versions the workers may run on, comma-separated as sent (12.4,12.6); empty: any. Recorded, not used for placement."
  allowedCudaVersions: String
  aiKey: String
  "QB (queue-based: jobs at /v2/{id}/run...) or LB (load-balanced: HTTP routes on its workers, no job queue)."
  type: String
  userId: String
  version: Int
  env: [EnvironmentVariable]
  createdAt: String
}

extend type User {
  "The account's SSH public keys, newline-separated."
  pubKey: String
  networkVolumes: [NetworkVolume!]!
  endpoints: [Endpoint!]!
  podTemplates: [PodTemplate!]!
  containerRegistryCreds: [RegistryAuth!]!
}

input UpdateUserSettingsInput { pubKey: String }

"With id: updates that template of yours; without: creates one."
input SaveTemplateInput {
  id: String
  name: String
  imageName: String
  dockerArgs: String
  containerDiskInGb: Int
  volumeInGb: Int
  volumeMountPath: String
  ports: String
  env: [EnvironmentVariableInput]
  isServerless: Boolean
  isPublic: Boolean
  readme: String
  category: String
  containerRegistryAuthId: String
  startSsh: Boolean
  startJupyter: Boolean
}

"With id: updates that endpoint of yours; without: creates one. scalerType QUEUE_DELAY or REQUEST_COUNT."
input EndpointInput {
  id: String
  name: String
  templateId: String
  gpuIds: String
  gpuCount: Int
  networkVolumeId: String
  locations: String
  idleTimeout: Int
  scalerType: String
  scalerValue: Int
  workersMin: Int
  workersMax: Int
  executionTimeoutMs: Int
  "An enum, as the newest Python client writes it inline (flashBootType: FLASHBOOT); a variable's string coerces."
  flashBootType: FlashBootType
  "Comma-separated CUDA versions (major.minor), as the Python client's create_endpoint sends them; an empty string clears."
  allowedCudaVersions: String
  "QB (default) or LB; fixed at creation."
  type: String
}

enum FlashBootType { OFF FLASHBOOT }

"endpointId (the client's spelling) or id."
input UpdateEndpointTemplateInput { endpointId: String id: String templateId: String! }

input SaveRegistryAuthInput { name: String! username: String! password: String! }
input UpdateRegistryAuthInput { id: String! username: String! password: String! }

input CreateNetworkVolumeInput { name: String! size: Int! dataCenterId: String! }
input UpdateNetworkVolumeInput { id: String! name: String size: Int }
input DeleteNetworkVolumeInput { id: String! }

extend type Mutation {
  updateUserSettings(input: UpdateUserSettingsInput!): User
  saveTemplate(input: SaveTemplateInput): PodTemplate
  deleteTemplate(templateName: String!): Void
  saveEndpoint(input: EndpointInput!): Endpoint
  updateEndpointTemplate(input: UpdateEndpointTemplateInput): Endpoint
  "Deletes an endpoint of yours; its queued and running jobs are cancelled."
  deleteEndpoint(id: String!): Boolean
  saveRegistryAuth(input: SaveRegistryAuthInput!): RegistryAuth
  updateRegistryAuth(input: UpdateRegistryAuthInput!): RegistryAuth
  deleteRegistryAuth(registryAuthId: String!): Boolean
  createNetworkVolume(input: CreateNetworkVolumeInput!): NetworkVolume
  updateNetworkVolume(input: UpdateNetworkVolumeInput!): NetworkVolume
  deleteNetworkVolume(input: DeleteNetworkVolumeInput!): Void
}
`;
