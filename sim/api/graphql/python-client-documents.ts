/**
 * The GraphQL documents the official Python client sends, character for character (its
 * documents are strings with inline arguments; see choices.md), for tests and for the
 * conformance suite. Each builder mirrors the client's string building, including its
 * whitespace, its `dataCenterId: null`, its `imageName: "None"` for a missing image and its
 * default `templateId: "runpod-ubuntu"` for CPU pods.
 */

export interface PythonDeployArgs {
  readonly name: string;
  readonly imageName: string | null;
  readonly gpuTypeId?: string;
  readonly cloudType?: "ALL" | "SECURE" | "COMMUNITY";
  readonly supportPublicIp?: boolean;
  readonly startSsh?: boolean;
  readonly dataCenterId?: string;
  readonly countryCode?: string;
  readonly gpuCount?: number;
  readonly volumeInGb?: number;
  readonly containerDiskInGb?: number;
  readonly minVcpuCount?: number;
  readonly minMemoryInGb?: number;
  readonly dockerArgs?: string;
  readonly ports?: string;
  readonly volumeMountPath?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly templateId?: string;
  readonly networkVolumeId?: string;
  readonly allowedCudaVersions?: readonly string[];
  readonly minDownload?: number;
  readonly minUpload?: number;
  readonly instanceId?: string;
}

/** `generate_pod_deployment_mutation`: podFindAndDeployOnDemand with gpuTypeId, else deployCpuPod. */
export function pythonDeployMutation(a: PythonDeployArgs): string {
  const f: string[] = [`name: "${a.name}"`, `imageName: "${a.imageName ?? "None"}"`, `cloudType: ${a.cloudType ?? "ALL"}`];
  if (a.startSsh ?? true) f.push("startSsh: true");
  let templateId = a.templateId;
  if (a.gpuTypeId !== undefined) {
    f.push(`gpuTypeId: "${a.gpuTypeId}"`);
    f.push(`supportPublicIp: ${String(a.supportPublicIp ?? true)}`);
    if (a.gpuCount !== undefined) f.push(`gpuCount: ${a.gpuCount}`);
    if (a.volumeInGb !== undefined) f.push(`volumeInGb: ${a.volumeInGb}`);
    if (a.minVcpuCount !== undefined) f.push(`minVcpuCount: ${a.minVcpuCount}`);
    if (a.minMemoryInGb !== undefined) f.push(`minMemoryInGb: ${a.minMemoryInGb}`);
    if (a.allowedCudaVersions !== undefined) f.push(`allowedCudaVersions: [${a.allowedCudaVersions.map((v) => `"${v}"`).join(", ")}]`);
  } else {
    if (a.instanceId !== undefined) f.push(`instanceId: "${a.instanceId}"`);
    templateId = templateId || "runpod-ubuntu";
  }
  f.push(a.dataCenterId !== undefined ? `dataCenterId: "${a.dataCenterId}"` : "dataCenterId: null");
  if (a.dockerArgs !== undefined) f.push(`dockerArgs: "${a.dockerArgs}"`);
  if (a.countryCode !== undefined) f.push(`countryCode: "${a.countryCode}"`);
  if (a.containerDiskInGb !== undefined) f.push(`containerDiskInGb: ${a.containerDiskInGb}`);
  if (a.ports !== undefined) f.push(`ports: "${a.ports.replaceAll(" ", "")}"`);
  if (a.volumeMountPath !== undefined) f.push(`volumeMountPath: "${a.volumeMountPath}"`);
  if (a.env !== undefined) f.push(`env: [${Object.entries(a.env).map(([k, v]) => `{ key: "${k}", value: "${v}" }`).join(", ")}]`);
  if (templateId !== undefined) f.push(`templateId: "${templateId}"`);
  if (a.networkVolumeId !== undefined) f.push(`networkVolumeId: "${a.networkVolumeId}"`);
  if (a.minDownload !== undefined) f.push(`minDownload: ${a.minDownload}`);
  if (a.minUpload !== undefined) f.push(`minUpload: ${a.minUpload}`);
  const mutation = a.gpuTypeId ? "podFindAndDeployOnDemand" : "deployCpuPod";
  return `
    mutation {
      ${mutation}(
        input: {
          ${f.join(", ")}
        }
      ) {
        id
        imageName
        env
        machineId
        machine {
          podHostId
        }
      }
    }
    `;
}

export const pythonStopMutation = (podId: string): string => `
    mutation {
        podStop(input: { podId: "${podId}" }) {
            id
            desiredStatus
        }
    }
    `;

export const pythonResumeMutation = (podId: string, gpuCount: number): string => `
    mutation {
        podResume(input: { podId: "${podId}", gpuCount: ${gpuCount} }) {
            id
            desiredStatus
            imageName
            env
            machineId
            machine {
                podHostId
            }
        }
    }
    `;

export const pythonTerminateMutation = (podId: string): string => `
    mutation {
        podTerminate(input: { podId: "${podId}" })
    }
    `;

/** The pod fields `get_pods` and `get_pod` select; `machineFields` is the client version's machine selection. */
function podSelection(indent: string, machineFields: readonly string[], runtimePortsBrace: string): string {
  const i = indent;
  return [
    "id",
    "containerDiskInGb",
    "costPerHr",
    "desiredStatus",
    "dockerArgs",
    "dockerId",
    "env",
    "gpuCount",
    "imageName",
    "lastStatusChange",
    "machineId",
    "memoryInGb",
    "name",
    "podType",
    "port",
    "ports",
    "uptimeSeconds",
    "vcpuCount",
    "volumeInGb",
    "volumeMountPath",
  ]
    .map((f) => `${i}${f}\n`)
    .join("")
    .concat(
      `${i}runtime {\n${i}    ports${runtimePortsBrace}{\n` +
        ["ip", "isIpPublic", "privatePort", "publicPort", "type"].map((f) => `${i}        ${f}\n`).join("") +
        `${i}    }\n${i}}\n`,
      `${i}machine {\n` + machineFields.map((f) => `${i}    ${f}\n`).join("") + `${i}}\n`,
    );
}

/** choices.md's machine selection; a newer client version adds the availability and maintenance fields. */
export const MACHINE_FIELDS = ["gpuDisplayName"] as const;
export const MACHINE_FIELDS_NEWER = ["gpuDisplayName", "gpuAvailable", "maintenanceStart", "maintenanceEnd", "maintenanceNote"] as const;

/** `QUERY_POD` (get_pods). */
export const pythonPodsQuery = (machineFields: readonly string[] = MACHINE_FIELDS): string =>
  `\nquery myPods {\n    myself {\n        pods {\n${podSelection("            ", machineFields, "")}        }\n    }\n}\n`;

/** `generate_pod_query` (get_pod). */
export const pythonPodQuery = (podId: string, machineFields: readonly string[] = MACHINE_FIELDS): string =>
  `\n    query pod {\n        pod(input: {podId: "${podId}"}) {\n${podSelection("            ", machineFields, " ")}        }\n    }\n    `;

/** `QUERY_GPU_TYPES` (get_gpus). */
export const pythonGpuTypesQuery = `
query GpuTypes {
  gpuTypes {
    id
    displayName
    memoryInGb
  }
}
`;

/** `generate_gpu_query` (get_gpu). */
export const pythonGpuQuery = (gpuId: string, gpuCount = 1): string => `
    query GpuTypes {
      gpuTypes(input: {id: "${gpuId}"}) {
        maxGpuCount
        id
        displayName
        manufacturer
        memoryInGb
        cudaCores
        secureCloud
        communityCloud
        securePrice
        communityPrice
        oneMonthPrice
        threeMonthPrice
        oneWeekPrice
        communitySpotPrice
        secureSpotPrice
        lowestPrice(input: {gpuCount: ${gpuCount}}) {
          minimumBidPrice
          uninterruptablePrice
        }
      }
    }
    `;
