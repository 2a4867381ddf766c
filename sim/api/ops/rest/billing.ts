/**
 * Billing (`GET /v2/billing/pods`, `GET /v2/billing/endpoints`): the caller's spend RATE now, in
 * USD per hour, derived from the model at the request's instant. It is not a history: the model
 * keeps no ledger of past spend, so there are no time buckets, and `metadata.basis` says so.
 *
 * - Pods: one record per pod of the caller (TERMINATED ones until the registry drops them), its
 *   `costPerHour` exactly the Pod's `cost` field (GPUs or vCPUs plus container disk and
 *   persistent volume; 0 when EXITED or TERMINATED), split into compute and storage.
 * - Endpoints: one record per endpoint the caller owns (shared built-ins are not billed to an
 *   account in the model). A worker costs while it holds GPUs (initializing, idle or running).
 *   The model does not say which of the endpoint's GPU types each worker leased, so every worker
 *   is priced at the endpoint's first (preferred) type, secure-cloud price: an estimate, named as
 *   such in the record (`gpuTypeId`, `pricePerGpuHour`). A CPU endpoint's workers are priced at its
 *   first CPU size (`gpuTypeId` that instance id, `gpuCount` 0, `pricePerGpuHour` 0).
 */
import type { Platform } from "../../../domain/platform.ts";
import { costPerHour, type PodRecord } from "../../../domain/pods/index.ts";
import { isoFromMicros } from "../../../domain/iso-time.ts";
import { catalogIndex } from "../../../domain/scheduler/index.ts";
import type { Micros } from "../../../core/index.ts";
import { json } from "../../json-response.ts";
import type { Operation } from "../../op-context.ts";
import { respond } from "../../types.ts";
import type { EndpointBilling, EndpointBillingRecord, PodBilling, PodBillingRecord } from "./resource-schemas.ts";

/** Amounts rounded to 1e-6 USD, as the Pod's `cost` is, so sums print cleanly. */
const usd = (x: number): number => Math.round(x * 1e6) / 1e6;

export const POD_BILLING_BASIS = "current cost per hour of each pod, as the Pod's cost field; a rate at asOf, not a history";
export const ENDPOINT_BILLING_BASIS =
  "current cost per hour of the workers holding GPUs, each priced at the endpoint's first GPU type (secure cloud); a rate at asOf, not a history";

export function podBillingRecord(pod: PodRecord): PodBillingRecord {
  const cost = costPerHour(pod);
  const compute = cost === 0 ? 0 : usd(pod.computePricePerHour);
  return {
    podId: pod.id,
    name: pod.name,
    status: pod.status,
    gpuTypeId: pod.gpu?.id ?? null,
    gpuCount: pod.gpu?.count ?? 0,
    cpuFlavorId: pod.cpu?.id ?? null,
    vcpuCount: pod.vcpuCount,
    computeCostPerHour: compute,
    storageCostPerHour: usd(cost - compute),
    costPerHour: cost,
  };
}

function metadata(platform: Platform, now: Micros, basis: string, costs: readonly number[]) {
  return {
    asOf: isoFromMicros(now, platform.epochMs),
    basis,
    recordCount: costs.length,
    totalCostPerHour: usd(costs.reduce((sum, c) => sum + c, 0)),
  };
}

export function podBilling(platform: Platform, accountId: string, now: Micros): PodBilling {
  const records = platform.pods.list(accountId).map(podBillingRecord);
  return { records, metadata: metadata(platform, now, POD_BILLING_BASIS, records.map((r) => r.costPerHour)) };
}

export function endpointBilling(platform: Platform, accountId: string, now: Micros): EndpointBilling {
  const types = catalogIndex(platform.catalog).gpuType;
  const records: EndpointBillingRecord[] = [];
  for (const e of platform.catalog.endpoints) {
    if (e.accountId !== accountId) continue;
    const index = platform.serverless.endpointIndex(e.id);
    const workers = index < 0 ? undefined : platform.serverless.healthOf(index).workers;
    const billedWorkers = workers ? workers.initializing + workers.idle + workers.running : 0;
    const cpu = e.cpu?.[0];
    if (cpu !== undefined) {
      // A CPU endpoint's workers hold vCPUs, priced at its first (preferred) size's flavor price.
      const flavor = platform.catalog.cpuFlavors.find((f) => f.id === cpu.flavorId);
      const perWorker = cpu.vcpuCount * (flavor?.pricePerVcpuHour ?? 0);
      records.push({ endpointId: e.id, name: e.name, gpuTypeId: `${cpu.flavorId}-${cpu.vcpuCount}-${cpu.memoryInGb}`, gpuCount: 0, billedWorkers, pricePerGpuHour: 0, costPerHour: usd(billedWorkers * perWorker) });
      continue;
    }
    const type = types.get(e.gpuTypeIds[0]!);
    const price = type?.securePrice ?? type?.communityPrice ?? 0;
    records.push({
      endpointId: e.id,
      name: e.name,
      gpuTypeId: e.gpuTypeIds[0]!,
      gpuCount: e.gpuCount,
      billedWorkers,
      pricePerGpuHour: price,
      costPerHour: usd(billedWorkers * e.gpuCount * price),
    });
  }
  return { records, metadata: metadata(platform, now, ENDPOINT_BILLING_BASIS, records.map((r) => r.costPerHour)) };
}

export const billingPods: Operation = ({ platform, principal, now }) => respond(json(200, podBilling(platform, principal.accountId, now)));

export const billingEndpoints: Operation = ({ platform, principal, now }) =>
  respond(json(200, endpointBilling(platform, principal.accountId, now)));
