/** A network volume: storage of one account in one data center, mountable by pods there. */
import { Type, type Static } from "@sinclair/typebox";
import { Id, Name } from "./common.ts";

export const NetworkVolumeSchema = Type.Object(
  {
    id: Id,
    accountId: Id,
    name: Name,
    /** GB. */
    size: Type.Integer({ minimum: 1, maximum: 4000 }),
    dataCenterId: Id,
  },
  { additionalProperties: false, title: "NetworkVolume" },
);

export type NetworkVolumeRecord = Static<typeof NetworkVolumeSchema>;
