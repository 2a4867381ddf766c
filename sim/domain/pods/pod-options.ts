/**
 * Options of the pod registry. Every default is a documented choice; the lifecycle delays are
 * lognormal (positive, right-skewed: most pods start in well under a minute, a few take much
 * longer, as image pulls do).
 */
import { minutes, seconds, type Micros } from "../../core/index.ts";
import { DEFAULT_EPOCH_MS } from "../iso-time.ts";
import { PodOptionError } from "./pod-errors.ts";

export interface DelayDistribution {
  /** Mean in virtual microseconds. */
  readonly mean: Micros;
  /** Coefficient of variation (standard deviation / mean). */
  readonly cv: number;
}

export interface PodOptions {
  /** PROVISIONING -> STARTING (allocation). Default mean 15 s, cv 0.5. */
  readonly provisioningDelay?: DelayDistribution;
  /** STARTING -> RUNNING or ERROR (image pull, container start). Default mean 30 s, cv 0.6. */
  readonly startingDelay?: DelayDistribution;
  /** Probability that a container start ends in ERROR instead of RUNNING. Default 0.01. */
  readonly failureRate?: number;
  /** How long a TERMINATED pod stays visible before it is dropped (then 404). Default 10 minutes. */
  readonly terminatedRetention?: Micros;
  /** Container disk in GB when the request names none. Default 50 (the real platform's default). */
  readonly defaultDisk?: number;
  /** USD per GB per month of container disk and persistent volume while the pod holds its host. Default 0.10. */
  readonly storagePricePerGbMonth?: number;
  /** `<pod_id>.<internalDomain>` is a globally networked pod's internalDns. Default "cpsim.internal". */
  readonly internalDomain?: string;
  /** Pods (any status, terminated ones until dropped) one account may have. Default 500. */
  readonly maxPodsPerAccount?: number;
  /** Pods the registry holds in all. Default 100000. */
  readonly maxPods?: number;
  /** Runtime utilization changes every bucket of this length. Default 10 s. */
  readonly runtimeBucket?: Micros;
  /** The wall-clock instant of virtual time 0, in ms since 1970, for createdAt/startedAt. Default 2026-01-01. */
  readonly epochMs?: number;
}

export type ResolvedPodOptions = { readonly [K in keyof PodOptions]-?: NonNullable<PodOptions[K]> };

export const DEFAULT_POD_OPTIONS: ResolvedPodOptions = Object.freeze({
  provisioningDelay: Object.freeze({ mean: seconds(15), cv: 0.5 }),
  startingDelay: Object.freeze({ mean: seconds(30), cv: 0.6 }),
  failureRate: 0.01,
  terminatedRetention: minutes(10),
  defaultDisk: 50,
  storagePricePerGbMonth: 0.1,
  internalDomain: "cpsim.internal",
  maxPodsPerAccount: 500,
  maxPods: 100_000,
  runtimeBucket: seconds(10),
  epochMs: DEFAULT_EPOCH_MS,
});

/** Hours in the month the platform bills storage by (365 * 24 / 12). */
export const HOURS_PER_MONTH = 730;

export function resolvePodOptions(options: PodOptions = {}): ResolvedPodOptions {
  const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const r = { ...DEFAULT_POD_OPTIONS, ...defined } as ResolvedPodOptions;
  for (const key of ["provisioningDelay", "startingDelay"] as const) {
    const d = r[key];
    if (!(d && Number.isSafeInteger(d.mean) && d.mean >= 1 && d.cv >= 0 && d.cv < Infinity)) {
      throw new PodOptionError(key, d, "{mean: a positive integer of microseconds, cv: a finite number >= 0}");
    }
  }
  if (!(r.failureRate >= 0 && r.failureRate <= 1)) throw new PodOptionError("failureRate", r.failureRate, "a probability in [0, 1]");
  if (!(Number.isSafeInteger(r.terminatedRetention) && r.terminatedRetention >= 0)) {
    throw new PodOptionError("terminatedRetention", r.terminatedRetention, "a non-negative integer of microseconds");
  }
  if (!(Number.isSafeInteger(r.defaultDisk) && r.defaultDisk >= 1)) throw new PodOptionError("defaultDisk", r.defaultDisk, "an integer >= 1");
  if (!(r.storagePricePerGbMonth >= 0 && r.storagePricePerGbMonth < Infinity)) {
    throw new PodOptionError("storagePricePerGbMonth", r.storagePricePerGbMonth, "a finite number >= 0");
  }
  if (!/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(r.internalDomain)) throw new PodOptionError("internalDomain", r.internalDomain, "a lowercase DNS name");
  for (const key of ["maxPodsPerAccount", "maxPods"] as const) {
    if (!(Number.isSafeInteger(r[key]) && r[key] >= 1)) throw new PodOptionError(key, r[key], "an integer >= 1");
  }
  if (!(Number.isSafeInteger(r.runtimeBucket) && r.runtimeBucket >= 1)) throw new PodOptionError("runtimeBucket", r.runtimeBucket, "a positive integer of microseconds");
  if (!Number.isSafeInteger(r.epochMs)) throw new PodOptionError("epochMs", r.epochMs, "an integer of milliseconds");
  return r;
}
