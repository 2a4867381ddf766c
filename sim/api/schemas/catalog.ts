/**
 * Catalog answers (choices.md; the spec shows only the group's name). Each list and each entry's
 * `id` and `name` are required; the other fields choices.md names are typed where their type is
 * known and otherwise left open, because the real platform includes some of them (availability)
 * only on request.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Ref, schemaId } from "./schema-helpers.ts";

export const CpuCatalogEntry = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    name: Type.String(),
    group: Type.Optional(Type.String()),
    vcpu: Type.Optional(Type.Unknown()),
    ramGbPerVcpu: Type.Optional(Type.Number()),
    price: Type.Optional(Type.Unknown()),
    availability: Type.Optional(Type.Unknown()),
    dataCenters: Type.Optional(Type.Array(Type.Unknown())),
  },
  { $id: schemaId("CpuCatalogEntry") },
);
export type CpuCatalogEntry = Static<typeof CpuCatalogEntry>;

export const CpuCatalog = Type.Object({ cpus: Type.Array(Ref(CpuCatalogEntry)) }, { $id: schemaId("CpuCatalog") });
export type CpuCatalog = Static<typeof CpuCatalog>;

export const DataCenterCatalogEntry = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    name: Type.String(),
    region: Type.Optional(Type.String()),
    globalNetwork: Type.Optional(Type.Boolean({ description: "Whether pods here may use global networking" })),
    networkVolumeTypes: Type.Optional(Type.Array(Type.Unknown())),
    compliance: Type.Optional(Type.Array(Type.Unknown())),
    gpuAvailability: Type.Optional(Type.Array(Type.Unknown())),
    cpuAvailability: Type.Optional(Type.Array(Type.Unknown())),
  },
  { $id: schemaId("DataCenterCatalogEntry") },
);
export type DataCenterCatalogEntry = Static<typeof DataCenterCatalogEntry>;

export const DataCenterCatalog = Type.Object(
  { dataCenters: Type.Array(Ref(DataCenterCatalogEntry)) },
  { $id: schemaId("DataCenterCatalog") },
);
export type DataCenterCatalog = Static<typeof DataCenterCatalog>;

export const GpuCatalogEntry = Type.Object({ id: Type.String({ minLength: 1 }) }, { $id: schemaId("GpuCatalogEntry") });
export type GpuCatalogEntry = Static<typeof GpuCatalogEntry>;

export const GpuCatalog = Type.Object({ gpus: Type.Array(Ref(GpuCatalogEntry)) }, { $id: schemaId("GpuCatalog") });
export type GpuCatalog = Static<typeof GpuCatalog>;
