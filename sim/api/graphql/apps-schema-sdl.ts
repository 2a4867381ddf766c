/**
 * The schema's part for the newest official Python client's apps ("Flash") surface, as SDL
 * extensions: secrets, flash apps with environments and builds, artifact uploads, browser-login
 * requests, global volumes, CPU flavors with their per-data-center stock, and the endpoint input's nested
 * template and CPU instance ids. Names and input shapes are those the client's documents
 * (runpod/api/queries/apps.py, mutations/apps.py) declare in their variables.
 */
export const appsSchemaSdl = /* GraphQL */ `
"Any JSON value (a build's manifest)."
scalar JSON

type Secret { id: ID! name: String description: String createdAt: String }

type FlashBuild { id: String! createdAt: String manifest: JSON }

"""
An app's environment. state: PENDING until a build is deployed to it, then HEALTHY. endpoints: those
a saveEndpoint deployed to it (flashEnvironmentId; the emulator does not start a manifest's
resources itself); networkVolumes: theirs. It cannot be deleted while one of its endpoints is left.
"""
type FlashEnvironment {
  id: String!
  name: String
  state: String
  activeBuildId: String
  createdAt: String
  endpoints: [Endpoint!]!
  networkVolumes: [NetworkVolume!]!
}

type FlashApp { id: String! name: String createdAt: String flashEnvironments: [FlashEnvironment!]! flashBuilds: [FlashBuild!]! }

"""
A browser-login request (may be made and polled without a key). status: PENDING for 3 s of model
time, then APPROVED once, with apiKey the first full-access key of the requesting key's account
(keyless: the catalog's first account), then CONSUMED (apiKey null); EXPIRED when unread for ten minutes.
"""
type FlashAuthRequest { id: String! status: String expiresAt: String apiKey: String }

"""
Where to put a build's tarball: uploadUrl takes one PUT of exactly tarballSize bytes while the
upload is open (the emulator keeps its size and SHA-256, not its bytes); objectKey then
finalizes into a build. uploadUrl is null only when the request named no Host.
"""
type FlashArtifactUpload { uploadUrl: String objectKey: String! expiresAt: String }

type CpuSpecifics { stockStatus: String instanceId: String dataCenterId: String }
type CpuFlavor { id: String! displayName: String groupName: String ramMultiplier: Int minVcpu: Int maxVcpu: Int specifics(input: SpecificsInput): CpuSpecifics }

input CpuFlavorInput {
  id: String
  "Serverless (true) or pod (false) stock; accepted and ignored: pods and workers share one stock in the model."
  isSls: Boolean
}
input SpecificsInput { dataCenterId: String instanceId: String isSls: Boolean }

extend input GpuLowestPriceInput { includeAiApi: Boolean }

extend type Endpoint {
  instanceIds: [String]
  "The Hugging Face models (owner/name[:revision]) its saveEndpoint named; recorded, not staged."
  modelReferences: [String!]!
}

extend input EndpointInput {
  "CPU instance ids (cpu3c-2-4 ...), in order of preference: a CPU endpoint, whose workers take CPU stock and no GPUs (leave gpuIds out)."
  instanceIds: [String]
  "A template made for (or, on update, changed with) this endpoint, deleted with it."
  template: SaveTemplateInput
  "Your network volumes for the workers (with networkVolumeId: all of them)."
  networkVolumeIds: [NetworkVolumeIdInput!]
  "Your global volumes for the workers (OBJECT_STORE_VOLUME): checked, then not mounted (no container runs)."
  volumes: [EndpointVolumeInput!]
  "One of your Flash environments: the endpoint is deployed to it (its endpoints list shows it), for good."
  flashEnvironmentId: String
  "Hugging Face models (owner/name[:revision], at most 8) to stage for the workers: checked and recorded; nothing is staged."
  modelReferences: [String]
  "The lowest CUDA version for the workers (12.8): checked for its form, then not used (as REST's gpu.minCudaVersion)."
  minCudaVersion: String
}

enum VolumeType { NETWORK_VOLUME OBJECT_STORE_VOLUME }
input NetworkVolumeIdInput { networkVolumeId: String! }
input EndpointVolumeInput { volumeId: String! volumeType: VolumeType! }
"""
A pod's volume: NETWORK_VOLUME is networkVolumeId at mountPath (one per pod); OBJECT_STORE_VOLUME
names one of your global volumes, checked and then not mounted (the model's pods have none).
"""
input VolumeMountInput { volumeId: String! volumeType: VolumeType! mountPath: String! }

extend input PodFindAndDeployOnDemandInput {
  volumeMounts: [VolumeMountInput]
  "Data centers in order of preference (with dataCenterId first); the platform's that this catalog does not hold are left out."
  dataCenterIds: [String]
  "Your registry credential for pulling imageName."
  containerRegistryAuthId: String
}
extend input deployCpuPodInput {
  volumeMounts: [VolumeMountInput]
  "Data centers in order of preference (with dataCenterId first); the platform's that this catalog does not hold are left out."
  dataCenterIds: [String]
  "Your registry credential for pulling imageName."
  containerRegistryAuthId: String
  "Checked to be a date-time, then not used (the model has no timers for it), as on a GPU pod."
  terminateAfter: String
}

"""
A global volume: storage not tied to a data center, which the apps client mounts by id or name.
The emulator keeps the record; nothing mounts it (no container runs).
"""
type GlobalStoreBucket { id: ID! name: String! createdAt: String }

extend type User { secrets: [Secret!]! flashApps: [FlashApp!]! globalStoreBuckets: [GlobalStoreBucket!]! }

"name: 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit; unique among yours."
input GlobalStoreBucketCreateInput { name: String! }
input SecretCreateInput { name: String! value: String! description: String }
input CreateFlashAppInput { name: String! }
input CreateFlashEnvironmentInput { flashAppId: String! name: String! }
input FlashEnvironmentByNameInput { flashAppId: String! name: String! }
input PrepareFlashArtifactUploadInput { flashAppId: String! tarballSize: Int! }
input FinalizeFlashArtifactUploadInput { flashAppId: String! objectKey: String! manifest: JSON! }
input DeployBuildToEnvironmentInput { flashEnvironmentId: String! flashBuildId: String! }

extend type Query {
  cpuFlavors(input: CpuFlavorInput): [CpuFlavor!]!
  "Errors with a message containing 'not found' when you have no app of that name (the client reads it so)."
  flashAppByName(flashAppName: String!): FlashApp
  flashEnvironmentByName(input: FlashEnvironmentByNameInput!): FlashEnvironment
  flashAuthRequestStatus(flashAuthRequestId: String!): FlashAuthRequest
}

extend type Mutation {
  secretCreate(input: SecretCreateInput!): Secret
  globalStoreBucketCreate(input: GlobalStoreBucketCreateInput!): GlobalStoreBucket
  secretDelete(id: ID!): Boolean
  createFlashApp(input: CreateFlashAppInput!): FlashApp
  deleteFlashApp(flashAppId: String!): Boolean
  createFlashEnvironment(input: CreateFlashEnvironmentInput!): FlashEnvironment
  deleteFlashEnvironment(flashEnvironmentId: String!): Boolean
  createFlashAuthRequest: FlashAuthRequest
  prepareFlashArtifactUpload(input: PrepareFlashArtifactUploadInput!): FlashArtifactUpload
  finalizeFlashArtifactUpload(input: FinalizeFlashArtifactUploadInput!): FlashBuild
  deployBuildToEnvironment(input: DeployBuildToEnvironmentInput!): FlashEnvironment
}
`;
