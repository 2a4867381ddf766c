/**
 * Container configuration, shared by templates, pods and serverless endpoints. The field schemas
 * are exported one by one because the request records reuse them under their own strictness.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Nullable, schemaId } from "./schema-helpers.ts";

export const Image = Type.String({ description: "Container image reference" });
export const Args = Type.String({ description: "Arguments passed to the container entrypoint" });
export const Disk = Type.Integer({ minimum: 1, description: "Container disk in GB; ephemeral, wiped on restart" });

/**
 * `port/protocol`: a port from 1 to 65535, a slash, a lower-case protocol name ("8888/http",
 * "22/tcp"). The spec names the form but not the protocols, so any lower-case word is accepted.
 */
export const PORT_PATTERN = "^([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])/[a-z]+$";
export const Port = Type.String({ pattern: PORT_PATTERN, description: "port/protocol, e.g. 8888/http" });
export const Ports = Type.Array(Port);
export const Env = Type.Record(Type.String(), Type.String(), { description: "Environment variables as key/value pairs" });
export const Registry = Nullable(Type.String({ description: "Container registry credential ID, for private images" }));

export const ContainerConfig = Type.Object(
  {
    image: Type.Optional(Image),
    args: Type.Optional(Args),
    disk: Type.Optional(Disk),
    ports: Type.Optional(Ports),
    env: Type.Optional(Env),
    registry: Type.Optional(Registry),
  },
  { $id: schemaId("ContainerConfig") },
);
export type ContainerConfig = Static<typeof ContainerConfig>;
