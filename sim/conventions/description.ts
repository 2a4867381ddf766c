/**
 * The service description a point of the space advertises (its `description` dimension): the
 * emulator's OpenAPI document with the paths the point serves (actions, GPU catalog, volume
 * collection), and no response schemas, since envelopes, statuses and formats are the point's own.
 */
import type { Conventions } from "./dimensions.ts";

/** Where each `description` value serves the document. */
export const DESCRIPTION_PATHS = {
  "openapi-json": "/openapi.json",
  "well-known": "/.well-known/openapi.json",
  "link-header": "/api/spec.json",
} as const;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const ANSWERS = { default: { description: "See the service's conventions: list envelopes, statuses and formats are not described here." } };
const POD_ID = [{ name: "podId", in: "path", required: true, schema: { type: "string" } }];

function operations(ops: unknown): Json {
  if (!isObject(ops)) return {};
  return Object.fromEntries(Object.entries(ops).map(([method, op]) => [method, isObject(op) ? { ...op, responses: ANSWERS } : op]));
}

/** The emulator's document `doc` as the point `c` serves it. */
export function describedRoutes(c: Conventions, doc: unknown): unknown {
  if (!isObject(doc) || !isObject(doc["paths"])) return doc;
  const volumes = c.volumes.startsWith("unlisted") ? null : c.volumes;
  const paths: Json = {};
  for (const [path, ops] of Object.entries(doc["paths"])) {
    // The description covers the v2 REST interface the conventions shape (not the emulator's v1 paths, nor itself).
    if (path === "/openapi.json" || path.startsWith("/v1/")) continue;
    if (path === "/v2/pods/{podId}/action" && c.actions !== "body") continue;
    if (path === "/v2/catalog/gpus") {
      paths[c.gpuPath] = operations(ops);
      continue;
    }
    const volume = /^\/v2\/(networkvolumes|network-volumes)(\/\{id\})?$/.exec(path);
    if (volume) {
      if (volumes !== null && volume[1] === "networkvolumes") paths[`${volumes}${volume[2] ?? ""}`] = operations(ops);
      continue;
    }
    paths[path] = operations(ops);
  }
  const action = (verb: string) => ({ post: { operationId: `pod${verb[0]!.toUpperCase()}${verb.slice(1)}`, summary: `${verb} a pod`, tags: ["Pods"], parameters: POD_ID, responses: ANSWERS } });
  if (c.actions === "verb") for (const verb of ["start", "stop", "restart", "terminate"]) paths[`/v2/pods/{podId}/${verb}`] = action(verb);
  if (c.actions === "custom") for (const verb of ["start", "stop", "restart"]) paths[`/v2/pods/{podId}:${verb}`] = action(verb);
  return { ...doc, openapi: "3.1.0", paths };
}
