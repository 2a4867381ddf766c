/** Container registry credentials of an account; pods and templates refer to them by id. */
import { Type, type Static } from "@sinclair/typebox";
import { Id, Name } from "./common.ts";

export const RegistrySchema = Type.Object(
  {
    id: Id,
    accountId: Id,
    name: Name,
    username: Name,
  },
  { additionalProperties: false, title: "Registry" },
);

export type RegistryRecord = Static<typeof RegistrySchema>;
