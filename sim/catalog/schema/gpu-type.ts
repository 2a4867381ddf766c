/**
 * A GPU type: the fields the platform's `gpuTypes` query exposes, with one price per offer.
 * Prices are USD per GPU per hour; null means the offer does not exist (for example
 * `communityPrice` of a type only the secure cloud carries). The loader checks that the nulls
 * agree with `secureCloud` and `communityCloud`.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Id, Name, Price, StringEnum } from "./common.ts";

export const MANUFACTURERS = ["Nvidia", "AMD"] as const;

export const GpuTypeSchema = Type.Object(
  {
    /** The platform's id, which is also the name clients send: "NVIDIA GeForce RTX 4090". */
    id: Id,
    displayName: Name,
    manufacturer: StringEnum(MANUFACTURERS),
    memoryInGb: Type.Integer({ minimum: 1 }),
    /** 0 for AMD parts, as the platform reports them. */
    cudaCores: Type.Integer({ minimum: 0 }),
    /** The most GPUs of this type one pod may have. */
    maxGpuCount: Type.Integer({ minimum: 1, maximum: 16 }),
    secureCloud: Type.Boolean(),
    communityCloud: Type.Boolean(),
    securePrice: Price,
    communityPrice: Price,
    secureSpotPrice: Price,
    communitySpotPrice: Price,
    /** Committed-term prices, per GPU-hour; only the secure cloud sells terms. */
    oneWeekPrice: Price,
    oneMonthPrice: Price,
    threeMonthPrice: Price,
  },
  { additionalProperties: false, title: "GpuType" },
);

export type GpuTypeRecord = Static<typeof GpuTypeSchema>;
