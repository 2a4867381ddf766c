/** Rules of the catalog reads (shapes from choices.md; the spec names only the group). */
import type { Rule } from "./rule.ts";

const CATALOG = "Catalog (REST v2)";

export const catalogRules = [
  {
    id: "catalog.cpus.shape", title: "`GET /v2/catalog/cpus` answers `{cpus: [...]}`",
    spec: "`GET /v2/catalog/cpus` → `{\"cpus\": [{id, name, group, vcpu, ramGbPerVcpu, price, availability, dataCenters}]}`",
    section: CATALOG, source: "choices", severity: "error", kind: "response",
  },
  {
    id: "catalog.datacenters.shape", title: "`GET /v2/catalog/datacenters` answers `{dataCenters: [...]}`",
    spec: "`GET /v2/catalog/datacenters` → `{\"dataCenters\": [{id, name, region, globalNetwork, networkVolumeTypes, compliance, gpuAvailability, cpuAvailability}]}`",
    section: CATALOG, source: "choices", severity: "error", kind: "response",
  },
  {
    id: "catalog.gpus.shape", title: "`GET /v2/catalog/gpus` answers `{gpus: [...]}`, for the cloud asked (SECURE by default)",
    spec: "`GET /v2/catalog/gpus` → `{\"gpus\": [...]}`; query `cloud` = SECURE (default) or COMMUNITY.",
    section: CATALOG, source: "choices", severity: "error", kind: "response",
  },
  {
    id: "catalog.global-network-field", title: "Data centers that support global networking say so with `globalNetwork`",
    spec: "eligible data centers carry a `globalNetwork` field in the data center catalog",
    section: "CreatePodRequest (body of createPod)", source: "spec", severity: "error", kind: "response",
  },
] as const satisfies readonly Rule[];
