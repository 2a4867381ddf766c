/**
 * A template: a saved container configuration. Its container fields carry the spec's names
 * (image, args, disk, ports, env, registry) so that a pod can be created by copying them
 * ("Remaining container settings may be copied from a template response").
 */
import { Type, type Static } from "@sinclair/typebox";
import { Id, Name, Nullable, StringEnum } from "./common.ts";

export const TEMPLATE_CATEGORIES = ["NVIDIA", "AMD", "CPU"] as const;

/** `port/protocol`, as the spec writes ports. */
export const Port = Type.String({ pattern: "^[0-9]{1,5}/(http|tcp|udp)$" });

export const TemplateSchema = Type.Object(
  {
    id: Id,
    name: Name,
    /** null: an official template every account sees. */
    accountId: Nullable(Id),
    isPublic: Type.Boolean(),
    isServerless: Type.Boolean(),
    category: StringEnum(TEMPLATE_CATEGORIES),
    image: Type.String({ minLength: 1 }),
    args: Type.String(),
    disk: Type.Integer({ minimum: 1 }),
    volumeInGb: Type.Integer({ minimum: 0 }),
    volumeMountPath: Type.String({ pattern: "^/" }),
    ports: Type.Array(Port, { uniqueItems: true }),
    env: Type.Record(Type.String(), Type.String()),
    /** Registry credential id, for private images. */
    registry: Nullable(Id),
    readme: Type.String(),
  },
  { additionalProperties: false, title: "Template" },
);

export type TemplateRecord = Static<typeof TemplateSchema>;
