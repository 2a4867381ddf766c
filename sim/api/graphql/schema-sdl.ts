/**
 * The GraphQL schema of the platform: the spec's operations and records, plus the fields and
 * arguments the official clients send (choices.md), so their documents run unmodified.
 * Field names follow the real platform's schema, typos included (`uninterruptablePrice`).
 * Inputs accept everything the official Python client writes, including fields the model has no
 * use for (startSsh, supportPublicIp, countryCode, minDownload, minUpload ...): they are read and
 * ignored, so an unmodified client document validates.
 */
export const schemaSdl = /* GraphQL */ `
"A value-less result, for mutations such as podTerminate that return a scalar and take no selection."
scalar Void

enum CloudTypeEnum { ALL SECURE COMMUNITY }

"Desired status of a pod. The REST status PROVISIONING/STARTING/RUNNING desires RUNNING."
enum PodStatus { CREATED RUNNING RESTARTING EXITED PAUSED DEAD TERMINATED }

input EnvironmentVariableInput { key: String! value: String }

input PodFindAndDeployOnDemandInput {
  cloudType: CloudTypeEnum
  gpuCount: Int
  volumeInGb: Int
  containerDiskInGb: Int
  minVcpuCount: Int
  minMemoryInGb: Int
  gpuTypeId: String
  gpuTypeIdList: [String]
  name: String
  imageName: String
  dockerArgs: String
  ports: String
  volumeMountPath: String
  env: [EnvironmentVariableInput]
  allowedCudaVersions: [String]
  startSsh: Boolean
  startJupyter: Boolean
  supportPublicIp: Boolean
  dataCenterId: String
  countryCode: String
  templateId: String
  networkVolumeId: String
  minDownload: Int
  minUpload: Int
  globalNetwork: Boolean
  stopAfter: String
  terminateAfter: String
  volumeKey: String
  deployCost: Float
}

"Spelled as the platform spells it (lower-case d), which documents that declare a variable of it name."
input deployCpuPodInput {
  instanceId: String
  cloudType: CloudTypeEnum
  containerDiskInGb: Int
  volumeInGb: Int
  deployCost: Float
  dataCenterId: String
  networkVolumeId: String
  imageName: String
  name: String
  templateId: String
  startSsh: Boolean
  startJupyter: Boolean
  supportPublicIp: Boolean
  ports: String
  env: [EnvironmentVariableInput]
  volumeMountPath: String
  dockerArgs: String
  countryCode: String
  minDownload: Int
  minUpload: Int
}

input PodResumeInput { podId: String! gpuCount: Int allowedCudaVersions: [String] }
input PodStopInput { podId: String! }
input PodTerminateInput { podId: String! }
input PodFilter { podId: String! }
input GpuTypeFilter { id: String ids: [String] }
input GpuLowestPriceInput {
  gpuCount: Int
  secureCloud: Boolean
  minDisk: Int
  minMemoryInGb: Int
  minVcpuCount: Int
  dataCenterId: String
  countryCode: String
  globalNetwork: Boolean
}

"""
The machine a pod runs on. gpuAvailable: free GPUs on that machine now. maintenance*: the model
schedules no maintenance, so always null; newer official clients select them.
"""
type Machine {
  podHostId: String
  gpuDisplayName: String
  dataCenterId: String
  gpuAvailable: Int
  maintenanceStart: String
  maintenanceEnd: String
  maintenanceNote: String
}

type PodRuntimePort { ip: String isIpPublic: Boolean privatePort: Int publicPort: Int type: String }
type PodRuntimeGpu { id: String gpuUtilPercent: Int memoryUtilPercent: Int }
type PodRuntimeContainer { cpuPercent: Int memoryPercent: Int }
type PodRuntime {
  uptimeInSeconds: Int
  ports: [PodRuntimePort]
  gpus: [PodRuntimeGpu]
  container: PodRuntimeContainer
}

type Pod {
  id: String!
  name: String
  imageName: String
  env: [String]
  machineId: String
  machine: Machine
  desiredStatus: PodStatus
  lastStatusChange: String
  runtime: PodRuntime
  costPerHr: Float
  gpuCount: Int
  vcpuCount: Float
  memoryInGb: Float
  containerDiskInGb: Int
  volumeInGb: Float
  volumeMountPath: String
  uptimeSeconds: Int
  dockerArgs: String
  dockerId: String
  podType: String
  port: Int
  ports: String
}

type LowestPrice {
  uninterruptablePrice: Float
  minimumBidPrice: Float
  stockStatus: String
  availableGpuCounts: [Int]
  gpuName: String
  gpuTypeId: String
  minMemory: Int
  minVcpu: Int
}

type GpuType {
  id: String!
  displayName: String
  manufacturer: String
  memoryInGb: Int
  cudaCores: Int
  maxGpuCount: Int
  secureCloud: Boolean
  communityCloud: Boolean
  securePrice: Float
  communityPrice: Float
  secureSpotPrice: Float
  communitySpotPrice: Float
  oneWeekPrice: Float
  oneMonthPrice: Float
  threeMonthPrice: Float
  lowestPrice(input: GpuLowestPriceInput): LowestPrice
}

type GpuAvailability { gpuTypeId: String displayName: String stockStatus: String available: Boolean }

type DataCenter {
  id: String!
  name: String
  location: String
  globalNetwork: Boolean
  gpuAvailability: [GpuAvailability]
}

type User { id: String! pods: [Pod!]! }

type Query {
  myself: User
  pod(input: PodFilter!): Pod
  gpuTypes(input: GpuTypeFilter): [GpuType!]!
  dataCenters: [DataCenter!]!
}

type Mutation {
  "input is nullable, as on the platform (some official documents declare $input nullable); a missing input is refused."
  podFindAndDeployOnDemand(input: PodFindAndDeployOnDemandInput): Pod
  deployCpuPod(input: deployCpuPodInput!): Pod
  podResume(input: PodResumeInput!): Pod
  podStop(input: PodStopInput!): Pod
  podTerminate(input: PodTerminateInput!): Void
}
`;
