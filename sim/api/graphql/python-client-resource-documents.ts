/**
 * The official Python client's (runpod-python) user, template, endpoint and registry documents,
 * character for character, as its GraphQL-era modules build them (runpod/api/queries/user.py,
 * queries/endpoints.py, mutations/user.py, mutations/templates.py, mutations/endpoints.py,
 * mutations/container_register_auth.py). Each builder mirrors the client's f-string, whitespace,
 * `""` for a missing value and `containerRegistryAuthId : ""` spacing included.
 */

/** `QUERY_USER` (get_user; also read by create_pod with a network volume and no data center). */
export const pythonUserQuery = `
query myself {
    myself {
        id
        pubKey
        networkVolumes {
            id
            name
            size
            dataCenterId
        }
    }
}
`;

/** `generate_user_mutation` (update_user_settings). */
export const pythonUserMutation = (pubkey: string): string => `
    mutation {
        updateUserSettings(
            input: {
                pubKey: "${pubkey}"
            }
        ) {
            id
            pubKey
        }
    }
    `;

export interface PythonTemplateArgs {
  readonly name: string;
  readonly imageName: string;
  readonly dockerStartCmd?: string;
  readonly containerDiskInGb?: number;
  readonly volumeInGb?: number;
  readonly volumeMountPath?: string;
  readonly ports?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly isServerless?: boolean;
  readonly registryAuthId?: string;
}

/** `generate_pod_template` (create_template). */
export function pythonTemplateMutation(a: PythonTemplateArgs): string {
  const f = [`name: "${a.name}"`, `imageName: "${a.imageName}"`];
  f.push(a.dockerStartCmd !== undefined ? `dockerArgs: "${a.dockerStartCmd.replaceAll('"', '\\"')}"` : 'dockerArgs: ""');
  f.push(`containerDiskInGb: ${a.containerDiskInGb ?? 10}`);
  f.push(a.volumeInGb !== undefined ? `volumeInGb: ${a.volumeInGb}` : "volumeInGb: 0");
  if (a.volumeMountPath !== undefined) f.push(`volumeMountPath: "${a.volumeMountPath}"`);
  f.push(a.ports !== undefined ? `ports: "${a.ports.replaceAll(" ", "")}"` : 'ports: ""');
  f.push(a.env !== undefined ? `env: [${Object.entries(a.env).map(([k, v]) => `{ key: "${k}", value: "${v}" }`).join(", ")}]` : "env: []");
  f.push(a.isServerless ? "isServerless: true" : "isServerless: false");
  f.push(a.registryAuthId !== undefined ? `containerRegistryAuthId : "${a.registryAuthId}"` : 'containerRegistryAuthId : ""');
  f.push("startSsh: true", "isPublic: false", 'readme: ""');
  return `
    mutation {
        saveTemplate(
            input: {
                ${f.join(", ")}
            }
        ) {
            id
            name
            imageName
            dockerArgs
            containerDiskInGb
            volumeInGb
            volumeMountPath
            ports
            env {
                key
                value
            }
            isServerless
        }
    }
    `;
}

/** `QUERY_ENDPOINT` (get_endpoints). */
export const pythonEndpointsQuery = `
query Query {
  myself {
    endpoints {
      aiKey
      gpuIds
      id
      idleTimeout
      name
      networkVolumeId
      locations
      scalerType
      scalerValue
      templateId
      type
      userId
      version
      workersMax
      workersMin
      workersStandby
      gpuCount
      env {
        key
        value
      }
      createdAt
      networkVolume {
        id
        dataCenterId
      }
    }
  }
}
`;

export interface PythonEndpointArgs {
  readonly name: string;
  readonly templateId: string;
  readonly gpuIds?: string;
  readonly networkVolumeId?: string;
  readonly locations?: string;
  readonly idleTimeout?: number;
  readonly scalerType?: string;
  readonly scalerValue?: number;
  readonly workersMin?: number;
  readonly workersMax?: number;
  readonly flashboot?: boolean;
  /** Comma-separated, as create_endpoint's allowed_cuda_versions ("12.4,12.5"). */
  readonly allowedCudaVersions?: string;
  /** create_endpoint passes 1 by default; generate_endpoint_mutation writes it unless None. */
  readonly gpuCount?: number | null;
}

/**
 * `generate_endpoint_mutation` as create_endpoint calls it, with the client's defaults
 * (runpod/api/mutations/endpoints.py, runpod-python 07fc6e2, 2026-08): its selection asks for
 * allowedCudaVersions, gpuCount and flashBootType.
 */
export function pythonEndpointMutation(a: PythonEndpointArgs): string {
  const f: string[] = [];
  if (a.flashboot === true) f.push("flashBootType: FLASHBOOT");
  f.push(`name: "${a.name}"`, `templateId: "${a.templateId}"`, `gpuIds: "${a.gpuIds ?? "AMPERE_16"}"`);
  f.push(a.networkVolumeId !== undefined ? `networkVolumeId: "${a.networkVolumeId}"` : 'networkVolumeId: ""');
  f.push(a.locations !== undefined ? `locations: "${a.locations}"` : 'locations: ""');
  f.push(`idleTimeout: ${a.idleTimeout ?? 5}`);
  f.push(`scalerType: "${a.scalerType ?? "QUEUE_DELAY"}"`);
  f.push(`scalerValue: ${a.scalerValue ?? 4}`);
  f.push(`workersMin: ${a.workersMin ?? 0}`);
  f.push(`workersMax: ${a.workersMax ?? 3}`);
  if (a.allowedCudaVersions) f.push(`allowedCudaVersions: "${a.allowedCudaVersions}"`);
  const gpuCount = a.gpuCount === undefined ? 1 : a.gpuCount;
  if (gpuCount !== null) f.push(`gpuCount: ${gpuCount}`);
  return `
    mutation {
        saveEndpoint(
            input: {
                ${f.join(", ")}
            }
        ) {
            id
            name
            templateId
            gpuIds
            networkVolumeId
            locations
            idleTimeout
            scalerType
            scalerValue
            workersMin
            workersMax
            allowedCudaVersions
            gpuCount
            flashBootType
        }
    }
    `;
}

/** `update_endpoint_template_mutation` (update_endpoint_template). */
export const pythonUpdateEndpointTemplateMutation = (endpointId: string, templateId: string): string => `
    mutation {
        updateEndpointTemplate(input: {templateId: "${templateId}", endpointId: "${endpointId}"}) {
            id
            templateId
        }
    }
    `;

/** `generate_container_registry_auth` (create_container_registry_auth). */
export const pythonSaveRegistryAuthMutation = (name: string, username: string, password: string): string => `
    mutation SaveRegistryAuth {
        saveRegistryAuth(input: {name: "${name}", username: "${username}", password: "${password}"}) {
            id
            name
        }
    }
    `;

/** `update_container_registry_auth`. */
export const pythonUpdateRegistryAuthMutation = (id: string, username: string, password: string): string => `
    mutation UpdateRegistryAuth {
        updateRegistryAuth(input: {id: "${id}", username: "${username}", password: "${password}"}) {
            id
            name
        }
    }
    `;

/** `delete_container_registry_auth`. */
export const pythonDeleteRegistryAuthMutation = (id: string): string => `
    mutation DeleteRegistryAuth {
        deleteRegistryAuth(registryAuthId: "${id}")
    }
    `;
