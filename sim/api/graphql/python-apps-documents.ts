/**
 * The newest official Python client's apps ("Flash") documents, character for character, as
 * runpod/api/queries/apps.py and runpod/api/mutations/apps.py define them. Unlike the older
 * modules' f-strings these declare variables; the client sends `{"query", "variables"}` (the
 * variables left out when empty) through run_graphql_query_async.
 */

export const QUERY_MY_ENDPOINTS = `
query myEndpoints {
    myself {
        endpoints {
            id
            name
            templateId
            workersMin
            workersMax
            template { env { key value } }
        }
    }
}
`;

export const QUERY_FLASH_APP_BY_NAME = `
query getFlashAppByName($flashAppName: String!) {
    flashAppByName(flashAppName: $flashAppName) {
        id
        name
        flashEnvironments {
            id
            name
            state
            activeBuildId
            endpoints { id name }
        }
    }
}
`;

export const QUERY_GPU_STOCK = `
query GpuStock($gpuTypesInput: GpuTypeFilter, $lowestPriceInput: GpuLowestPriceInput) {
    gpuTypes(input: $gpuTypesInput) {
        lowestPrice(input: $lowestPriceInput) { stockStatus }
    }
}
`;

export const QUERY_CPU_STOCK = `
query CpuStock($cpuFlavorInput: CpuFlavorInput, $specificsInput: SpecificsInput) {
    cpuFlavors(input: $cpuFlavorInput) {
        specifics(input: $specificsInput) { stockStatus }
    }
}
`;

export const QUERY_NETWORK_VOLUMES = `
query myVolumes {
    myself {
        networkVolumes { id name size dataCenterId }
    }
}
`;

export const QUERY_REGISTRY_AUTHS = `
query myRegistryCreds {
    myself {
        containerRegistryCreds { id name }
    }
}
`;

export const QUERY_SECRETS = `
query mySecrets {
    myself {
        secrets { id name description createdAt }
    }
}
`;

export const QUERY_FLASH_APPS = `
query getFlashApps {
    myself {
        flashApps {
            id
            name
            flashEnvironments {
                id
                name
                state
                createdAt
                activeBuildId
            }
            flashBuilds { id createdAt }
        }
    }
}
`;

export const QUERY_FLASH_ENVIRONMENT_BY_NAME = `
query getFlashEnvironmentByName($input: FlashEnvironmentByNameInput!) {
    flashEnvironmentByName(input: $input) {
        id
        name
        state
        activeBuildId
        createdAt
        endpoints { id name }
        networkVolumes { id name }
    }
}
`;

export const QUERY_FLASH_AUTH_REQUEST_STATUS = `
query flashAuthRequestStatus($flashAuthRequestId: String!) {
    flashAuthRequestStatus(flashAuthRequestId: $flashAuthRequestId) {
        id
        status
        expiresAt
        apiKey
    }
}
`;

export const MUTATION_SAVE_ENDPOINT = `
mutation saveEndpoint($input: EndpointInput!) {
    saveEndpoint(input: $input) {
        id
        name
        templateId
        gpuIds
        instanceIds
        workersMin
        workersMax
        idleTimeout
        aiKey
    }
}
`;

export const MUTATION_DELETE_ENDPOINT = `
mutation deleteEndpoint($id: String!) {
    deleteEndpoint(id: $id)
}
`;

export const MUTATION_DEPLOY_CPU_POD = `
mutation deployCpuPod($input: deployCpuPodInput!) {
    deployCpuPod(input: $input) { id desiredStatus }
}
`;

export const MUTATION_DEPLOY_POD = `
mutation deployPod($input: PodFindAndDeployOnDemandInput) {
    podFindAndDeployOnDemand(input: $input) { id desiredStatus }
}
`;

export const MUTATION_TERMINATE_POD = `
mutation terminatePod($input: PodTerminateInput!) {
    podTerminate(input: $input)
}
`;

export const MUTATION_CREATE_FLASH_APP = `
mutation createFlashApp($input: CreateFlashAppInput!) {
    createFlashApp(input: $input) { id name }
}
`;

export const MUTATION_CREATE_FLASH_ENVIRONMENT = `
mutation createFlashEnvironment($input: CreateFlashEnvironmentInput!) {
    createFlashEnvironment(input: $input) { id name }
}
`;

export const MUTATION_CREATE_NETWORK_VOLUME = `
mutation createNetworkVolume($input: CreateNetworkVolumeInput!) {
    createNetworkVolume(input: $input) {
        id
        name
        size
        dataCenterId
    }
}
`;

export const MUTATION_SAVE_REGISTRY_AUTH = `
mutation SaveRegistryAuth($input: SaveRegistryAuthInput!) {
    saveRegistryAuth(input: $input) { id name }
}
`;

export const MUTATION_DELETE_REGISTRY_AUTH = `
mutation DeleteRegistryAuth($registryAuthId: String!) {
    deleteRegistryAuth(registryAuthId: $registryAuthId)
}
`;

export const MUTATION_CREATE_GLOBAL_VOLUME = `
mutation createGlobalVolume($input: GlobalStoreBucketCreateInput!) {
    globalStoreBucketCreate(input: $input) { id name }
}
`;

/**
 * list_global_volumes' QUERY_GLOBAL_VOLUMES is not in the client sources at hand; this is the
 * document public code sends the real service for the same list (same field, same selection).
 */
export const QUERY_GLOBAL_VOLUMES = "query { myself { globalStoreBuckets { id name } } }";

export const MUTATION_CREATE_SECRET = `
mutation secretCreate($input: SecretCreateInput!) {
    secretCreate(input: $input) { id name }
}
`;

export const MUTATION_DELETE_SECRET = `
mutation secretDelete($id: ID!) {
    secretDelete(id: $id)
}
`;

export const MUTATION_DELETE_FLASH_APP = `
mutation deleteFlashApp($flashAppId: String!) {
    deleteFlashApp(flashAppId: $flashAppId)
}
`;

export const MUTATION_DELETE_FLASH_ENVIRONMENT = `
mutation deleteFlashEnvironment($flashEnvironmentId: String!) {
    deleteFlashEnvironment(flashEnvironmentId: $flashEnvironmentId)
}
`;

export const MUTATION_CREATE_FLASH_AUTH_REQUEST = `
mutation createFlashAuthRequest {
    createFlashAuthRequest {
        id
        status
        expiresAt
    }
}
`;

export const MUTATION_PREPARE_ARTIFACT_UPLOAD = `
mutation PrepareArtifactUpload($input: PrepareFlashArtifactUploadInput!) {
    prepareFlashArtifactUpload(input: $input) {
        uploadUrl
        objectKey
        expiresAt
    }
}
`;

export const MUTATION_FINALIZE_ARTIFACT_UPLOAD = `
mutation FinalizeArtifactUpload($input: FinalizeFlashArtifactUploadInput!) {
    finalizeFlashArtifactUpload(input: $input) { id manifest }
}
`;

export const MUTATION_DEPLOY_BUILD = `
mutation deployBuildToEnvironment($input: DeployBuildToEnvironmentInput!) {
    deployBuildToEnvironment(input: $input) { id name }
}
`;
