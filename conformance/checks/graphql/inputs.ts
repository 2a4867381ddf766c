/**
 * fast-check generators of podFindAndDeployOnDemand inputs. Values stay inside what any sensible
 * platform accepts (names and env keys of safe characters, small disks, one port, one or two
 * GPUs): a refusal must then be the target's fault or its capacity, never the generator's.
 * Env keys carry a `CPSIM_` prefix so they never collide with variables a platform sets itself.
 */
import fc from "fast-check";
import type { DeployFields } from "./deploy.ts";

/** An image every platform can pull, kept alive by its arguments. */
export const IMAGE = "ubuntu:22.04";
export const KEEP_ALIVE_ARGS = "sleep infinity";

export const podNameArb = fc.stringMatching(/^[a-z0-9]{0,8}$/).map((s) => `cpsim-gql-${s}`);

const envKeyArb = fc.stringMatching(/^[A-Z0-9_]{1,10}$/).map((s) => `CPSIM_${s}`);
/** Values include `=`, so `KEY=value` must split at the first one. */
const envValueArb = fc.stringMatching(/^[A-Za-z0-9_.\/:=,+@%-]{1,16}$/);

export type EnvPairs = readonly (readonly [string, string])[];

export const envArb: fc.Arbitrary<EnvPairs> = fc.uniqueArray(fc.tuple(envKeyArb, envValueArb), {
  minLength: 1,
  maxLength: 4,
  selector: (t) => t[0],
});

/** An index into the GPU counts a type offers (1 or 2); shrinks to 1. */
export const countPickArb = fc.nat({ max: 3 });

export const portArb = fc
  .tuple(fc.integer({ min: 8000, max: 9999 }), fc.constantFrom("http", "tcp"))
  .map(([port, protocol]) => `${port}/${protocol}`);

/** CUDA releases from 11.0 to 13.x: wide enough that no host of a current platform is outside it. */
export const EVERY_CUDA_VERSION: readonly string[] = [
  ...Array.from({ length: 9 }, (_, i) => `11.${i}`),
  ...Array.from({ length: 10 }, (_, i) => `12.${i}`),
  ...Array.from({ length: 3 }, (_, i) => `13.${i}`),
];

/** The deploy a check makes when it needs a pod: few fields, one port for runtime ports. */
export interface BasicDeploy {
  readonly name: string;
  readonly env: EnvPairs;
  readonly countPick: number;
}

export const basicDeployArb: fc.Arbitrary<BasicDeploy> = fc.record({ name: podNameArb, env: envArb, countPick: countPickArb });

export function basicFields(d: BasicDeploy, gpuTypeId: string, gpuCount: number): DeployFields {
  return { gpuTypeId, gpuCount, name: d.name, imageName: IMAGE, dockerArgs: KEEP_ALIVE_ARGS, ports: "8888/http", env: d.env };
}

/** Every input field of the spec's table, with its type. */
export interface FullDeploy extends BasicDeploy {
  readonly volumeInGb: number;
  readonly containerDiskInGb: number;
  readonly minVcpuCount: number;
  readonly minMemoryInGb: number;
  readonly dockerArgs: string;
  readonly port: string;
  readonly volumeMountPath: string;
}

export const fullDeployArb: fc.Arbitrary<FullDeploy> = fc.record({
  name: podNameArb,
  env: envArb,
  countPick: countPickArb,
  volumeInGb: fc.integer({ min: 20, max: 40 }),
  containerDiskInGb: fc.integer({ min: 10, max: 40 }),
  minVcpuCount: fc.integer({ min: 1, max: 2 }),
  minMemoryInGb: fc.integer({ min: 1, max: 4 }),
  dockerArgs: fc.constantFrom(KEEP_ALIVE_ARGS, "bash -c 'sleep 3600'", 'sh -c "tail -f /dev/null"'),
  port: portArb,
  volumeMountPath: fc.constantFrom("/workspace", "/data", "/root/models"),
});

export function fullFields(d: FullDeploy, gpuTypeId: string, gpuCount: number): DeployFields {
  return {
    gpuTypeId,
    gpuCount,
    name: d.name,
    imageName: IMAGE,
    volumeInGb: d.volumeInGb,
    containerDiskInGb: d.containerDiskInGb,
    minVcpuCount: d.minVcpuCount,
    minMemoryInGb: d.minMemoryInGb,
    dockerArgs: d.dockerArgs,
    ports: d.port,
    volumeMountPath: d.volumeMountPath,
    env: d.env,
    allowedCudaVersions: EVERY_CUDA_VERSION,
  };
}

/** Only what a deploy cannot do without: the baseline a refused full input is compared with. */
export function minimalFields(f: DeployFields): DeployFields {
  return { gpuTypeId: f.gpuTypeId, gpuCount: f.gpuCount, name: f.name, imageName: f.imageName };
}
