/**
 * References between collections: every id a record names must exist, and must be usable
 * where it is named (a host's CUDA version offered by its data center, a host's cloud offered
 * for its GPU type, a CPU flavor offered in the host's data center, ...). The domain then
 * trusts these links and never meets a dangling id.
 */
import type { Catalog, CpuFlavor, DataCenter, GpuType } from "./catalog.ts";
import { pointer, show, type CatalogIssue } from "./catalog-error.ts";

function byId<T extends { readonly id: string }>(items: readonly T[]): Map<string, T> {
  return new Map(items.map((item) => [item.id, item]));
}

export function checkReferences(catalog: Catalog): CatalogIssue[] {
  const issues: CatalogIssue[] = [];
  const gpuTypes = byId(catalog.gpuTypes);
  const dataCenters = byId(catalog.dataCenters);
  const flavors = byId(catalog.cpuFlavors);
  const accounts = byId(catalog.accounts);
  const registries = byId(catalog.registries);

  const issue = (file: string, at: string, message: string): void => {
    issues.push({ file, pointer: at, message });
  };
  const known = <T>(map: Map<string, T>, id: string, file: string, at: string, what: string): T | undefined => {
    const found = map.get(id);
    if (!found) issue(file, at, `must be the id of ${what}, got ${show(id)}`);
    return found;
  };

  catalog.hosts.forEach((host, i) => {
    const at = (...rest: (string | number)[]): string => pointer("hosts", i, ...rest);
    const dc: DataCenter | undefined = known(dataCenters, host.dataCenterId, "hosts.json", at("dataCenterId"), "a data center in data-centers.json");
    if (host.kind === "gpu") {
      const type: GpuType | undefined = known(gpuTypes, host.gpuTypeId, "hosts.json", at("gpuTypeId"), "a GPU type in gpu-types.json");
      if (type) {
        const offered = host.cloud === "SECURE" ? type.secureCloud : type.communityCloud;
        if (!offered) issue("hosts.json", at("cloud"), `must be a cloud that offers ${type.id}, got ${show(host.cloud)}`);
        if (host.gpuCount > type.maxGpuCount) {
          issue("hosts.json", at("gpuCount"), `must be at most ${type.maxGpuCount} (maxGpuCount of ${type.id}), got ${host.gpuCount}`);
        }
        if (type.manufacturer === "AMD" && host.cudaVersion !== null) {
          issue("hosts.json", at("cudaVersion"), `must be null on an AMD host, got ${show(host.cudaVersion)}`);
        }
        if (type.manufacturer !== "AMD" && host.cudaVersion === null) {
          issue("hosts.json", at("cudaVersion"), `must be a CUDA version on an NVIDIA host, got null`);
        }
      }
      if (dc && host.cudaVersion !== null && !dc.cudaVersions.includes(host.cudaVersion)) {
        issue("hosts.json", at("cudaVersion"), `must be one of the CUDA versions of ${dc.id} (${dc.cudaVersions.join(", ")}), got ${show(host.cudaVersion)}`);
      }
    } else {
      host.cpuFlavorIds.forEach((flavorId, j) => {
        const flavor: CpuFlavor | undefined = known(flavors, flavorId, "hosts.json", at("cpuFlavorIds", j), "a CPU flavor in cpu-flavors.json");
        if (!flavor) return;
        if (!flavor.dataCenterIds.includes(host.dataCenterId)) {
          issue("hosts.json", at("cpuFlavorIds", j), `must be a CPU flavor offered in ${host.dataCenterId}, got ${show(flavorId)}`);
        }
        const vcpus = Math.min(...flavor.vcpuCounts);
        if (host.vcpuCount < vcpus || host.memoryInGb < vcpus * flavor.ramGbPerVcpu) {
          issue("hosts.json", at("cpuFlavorIds", j), `must be a flavor whose smallest size (${vcpus} vCPU, ${vcpus * flavor.ramGbPerVcpu} GB) fits the host, got ${show(flavorId)}`);
        }
      });
    }
  });

  catalog.cpuFlavors.forEach((flavor, i) => {
    flavor.dataCenterIds.forEach((id, j) => {
      known(dataCenters, id, "cpu-flavors.json", pointer("cpuFlavors", i, "dataCenterIds", j), "a data center in data-centers.json");
    });
  });

  catalog.networkVolumes.forEach((volume, i) => {
    known(accounts, volume.accountId, "network-volumes.json", pointer("networkVolumes", i, "accountId"), "an account in accounts.json");
    const dc = known(dataCenters, volume.dataCenterId, "network-volumes.json", pointer("networkVolumes", i, "dataCenterId"), "a data center in data-centers.json");
    if (dc && dc.networkVolumeTypes.length === 0) {
      issue("network-volumes.json", pointer("networkVolumes", i, "dataCenterId"), `must be a data center that offers network volumes, got ${show(dc.id)}`);
    }
  });

  catalog.registries.forEach((registry, i) => {
    known(accounts, registry.accountId, "registries.json", pointer("registries", i, "accountId"), "an account in accounts.json");
  });

  catalog.templates.forEach((template, i) => {
    if (template.accountId !== null) {
      known(accounts, template.accountId, "templates.json", pointer("templates", i, "accountId"), "an account in accounts.json");
    }
    if (template.registry !== null) {
      const registry = known(registries, template.registry, "templates.json", pointer("templates", i, "registry"), "a registry in registries.json");
      if (registry && registry.accountId !== template.accountId) {
        issue("templates.json", pointer("templates", i, "registry"), `must be a registry of the template's account (${String(template.accountId)}), got ${show(registry.id)} of ${registry.accountId}`);
      }
    }
  });

  catalog.endpoints.forEach((endpoint, i) => {
    if (endpoint.accountId !== null) {
      known(accounts, endpoint.accountId, "endpoints.json", pointer("endpoints", i, "accountId"), "an account in accounts.json");
    }
    endpoint.gpuTypeIds.forEach((id, j) => {
      const type = known(gpuTypes, id, "endpoints.json", pointer("endpoints", i, "gpuTypeIds", j), "a GPU type in gpu-types.json");
      if (type && endpoint.gpuCount > type.maxGpuCount) {
        issue("endpoints.json", pointer("endpoints", i, "gpuTypeIds", j), `must be a GPU type allowing ${endpoint.gpuCount} GPUs per worker (gpuCount), got ${show(id)} (maxGpuCount ${type.maxGpuCount})`);
      }
    });
  });

  return issues;
}
