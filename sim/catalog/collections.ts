/**
 * The catalog's files: one JSON file per collection, each `{ "<key>": [item, ...] }`.
 * This table is the single list of them; the loader, the validator and the tests iterate it.
 */
import type { TSchema } from "@sinclair/typebox";
import { CollectionFile } from "./schema/common.ts";
import { GpuTypeSchema } from "./schema/gpu-type.ts";
import { DataCenterSchema } from "./schema/data-center.ts";
import { HostSchema } from "./schema/host.ts";
import { CpuFlavorSchema } from "./schema/cpu-flavor.ts";
import { AccountSchema } from "./schema/account.ts";
import { NetworkVolumeSchema } from "./schema/network-volume.ts";
import { TemplateSchema } from "./schema/template.ts";
import { RegistrySchema } from "./schema/registry.ts";
import { EndpointSchema } from "./schema/endpoint.ts";
import type { Catalog } from "./catalog.ts";

export interface Collection {
  /** The file name inside the catalog directory. */
  readonly file: string;
  /** The property of the file (and of `Catalog`) holding the list. */
  readonly key: keyof Catalog;
  /** The schema of the whole file. */
  readonly schema: TSchema;
}

function collection(file: string, key: keyof Catalog, item: TSchema): Collection {
  return { file, key, schema: CollectionFile(key, item) };
}

export const COLLECTIONS: readonly Collection[] = [
  collection("gpu-types.json", "gpuTypes", GpuTypeSchema),
  collection("data-centers.json", "dataCenters", DataCenterSchema),
  collection("hosts.json", "hosts", HostSchema),
  collection("cpu-flavors.json", "cpuFlavors", CpuFlavorSchema),
  collection("accounts.json", "accounts", AccountSchema),
  collection("network-volumes.json", "networkVolumes", NetworkVolumeSchema),
  collection("templates.json", "templates", TemplateSchema),
  collection("registries.json", "registries", RegistrySchema),
  collection("endpoints.json", "endpoints", EndpointSchema),
];

/** The file that holds a collection, for messages that name it. */
export function fileOf(key: keyof Catalog): string {
  const found = COLLECTIONS.find((c) => c.key === key);
  if (!found) throw new Error(`no catalog file holds ${key}`);
  return found.file;
}
