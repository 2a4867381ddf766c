/**
 * The emulator's exact catalog entries (choices.md names the fields; their contents are the
 * emulator's choice). sim/api/schemas' CpuCatalog, DataCenterCatalog and GpuCatalog stay lenient,
 * because the conformance suite must accept another implementation's contents; these are the
 * stricter shapes the emulator promises, typed from one declaration and checked in its tests.
 */
import { Type, type Static } from "@sinclair/typebox";
import { StringEnum } from "../../schemas/index.ts";

export const STOCK_STATUSES = ["High", "Medium", "Low", "None"] as const;
const StockStatus = StringEnum(STOCK_STATUSES);
const Closed = { additionalProperties: false } as const;

export const CpuFlavorEntry = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    name: Type.String(),
    group: Type.String(),
    vcpu: Type.Object(
      {
        min: Type.Integer({ minimum: 2 }),
        max: Type.Integer({ minimum: 2 }),
        /** The vCPU counts createPod accepts for this flavor (`cpu.vcpuCount`). */
        allowed: Type.Array(Type.Integer({ minimum: 2 }), { minItems: 1 }),
      },
      Closed,
    ),
    ramGbPerVcpu: Type.Integer({ minimum: 1 }),
    price: Type.Object({ perVcpuHour: Type.Number({ exclusiveMinimum: 0 }), currency: Type.Literal("USD") }, Closed),
    availability: Type.Object(
      {
        /** At the flavor's smallest size, over every data center. */
        stockStatus: StockStatus,
        /** The allowed counts a pod could be placed with now. */
        availableVcpuCounts: Type.Array(Type.Integer({ minimum: 2 })),
        byDataCenter: Type.Array(Type.Object({ dataCenterId: Type.String(), stockStatus: StockStatus }, Closed)),
      },
      Closed,
    ),
    /** Data centers offering the flavor. */
    dataCenters: Type.Array(Type.String({ minLength: 1 })),
  },
  Closed,
);
export type CpuFlavorEntry = Static<typeof CpuFlavorEntry>;
export const CpuFlavorCatalog = Type.Object({ cpus: Type.Array(CpuFlavorEntry) }, Closed);

export const DataCenterEntry = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    name: Type.String(),
    region: Type.String(),
    globalNetwork: Type.Boolean(),
    networkVolumeTypes: Type.Array(Type.String()),
    compliance: Type.Array(Type.String()),
    gpuAvailability: Type.Array(Type.Object({ gpuTypeId: Type.String(), displayName: Type.String(), stockStatus: StockStatus }, Closed)),
    cpuAvailability: Type.Array(Type.Object({ cpuFlavorId: Type.String(), stockStatus: StockStatus }, Closed)),
  },
  Closed,
);
export type DataCenterEntry = Static<typeof DataCenterEntry>;
export const DataCenterEntryCatalog = Type.Object({ dataCenters: Type.Array(DataCenterEntry) }, Closed);

export const GpuTypeEntry = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    displayName: Type.String(),
    manufacturer: Type.String(),
    memoryInGb: Type.Integer({ minimum: 1 }),
    maxGpuCount: Type.Integer({ minimum: 1 }),
    cloud: StringEnum(["SECURE", "COMMUNITY"] as const),
    /** USD per GPU per hour, on demand, in the cloud asked for. */
    price: Type.Number({ minimum: 0 }),
    stockStatus: StockStatus,
    availableGpuCounts: Type.Array(Type.Integer({ minimum: 1 })),
  },
  Closed,
);
export type GpuTypeEntry = Static<typeof GpuTypeEntry>;
export const GpuTypeEntryCatalog = Type.Object({ gpus: Type.Array(GpuTypeEntry) }, Closed);
