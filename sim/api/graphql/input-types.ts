/**
 * The TypeScript shapes of the schema's input objects, as graphql-js hands them to resolvers:
 * every nullable field may be absent or null.
 */
type Opt<T> = T | null | undefined;

export type CloudTypeEnum = "ALL" | "SECURE" | "COMMUNITY";

export interface EnvironmentVariableInput {
  readonly key: string;
  readonly value?: Opt<string>;
}

/** Fields podFindAndDeployOnDemand and deployCpuPod share. */
export interface ContainerInput {
  readonly cloudType?: Opt<CloudTypeEnum>;
  readonly containerDiskInGb?: Opt<number>;
  readonly volumeInGb?: Opt<number>;
  readonly name?: Opt<string>;
  readonly imageName?: Opt<string>;
  readonly dockerArgs?: Opt<string>;
  readonly ports?: Opt<string>;
  readonly volumeMountPath?: Opt<string>;
  readonly env?: Opt<ReadonlyArray<EnvironmentVariableInput | null>>;
  readonly dataCenterId?: Opt<string>;
  readonly networkVolumeId?: Opt<string>;
  readonly templateId?: Opt<string>;
  /** The newest client's mounts and placement (volume-mounts-input.ts folds them into the fields above). */
  readonly volumeMounts?: Opt<ReadonlyArray<VolumeMountInput | null>>;
  readonly dataCenterIds?: Opt<ReadonlyArray<string | null>>;
  readonly containerRegistryAuthId?: Opt<string>;
  readonly terminateAfter?: Opt<string>;
}

export interface VolumeMountInput {
  readonly volumeId: string;
  readonly volumeType: "NETWORK_VOLUME" | "OBJECT_STORE_VOLUME";
  readonly mountPath: string;
}

export interface PodFindAndDeployOnDemandInput extends ContainerInput {
  readonly gpuCount?: Opt<number>;
  readonly minVcpuCount?: Opt<number>;
  readonly minMemoryInGb?: Opt<number>;
  readonly gpuTypeId?: Opt<string>;
  readonly gpuTypeIdList?: Opt<ReadonlyArray<string | null>>;
  readonly allowedCudaVersions?: Opt<ReadonlyArray<string | null>>;
  readonly globalNetwork?: Opt<boolean>;
}

export interface DeployCpuPodInput extends ContainerInput {
  /** Left out (as the Python client's `create_pod(name, image)` does): the default size, see deployCpuPod. */
  readonly instanceId?: Opt<string>;
}

export interface PodIdInput {
  readonly podId: string;
}

export interface PodResumeInput extends PodIdInput {
  readonly gpuCount?: Opt<number>;
  readonly allowedCudaVersions?: Opt<ReadonlyArray<string | null>>;
}

export interface GpuTypeFilter {
  readonly id?: Opt<string>;
  readonly ids?: Opt<ReadonlyArray<string | null>>;
}

export interface GpuLowestPriceInput {
  readonly gpuCount?: Opt<number>;
  readonly secureCloud?: Opt<boolean>;
  readonly dataCenterId?: Opt<string>;
}
