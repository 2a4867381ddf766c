/**
 * The service description a point of the space advertises (its `description` dimension) in the
 * format its `descriptionFormat` names: the emulator's OpenAPI document with the paths the point
 * serves (actions, GPU catalog, volume collection), and no response schemas, since envelopes,
 * statuses and formats are the point's own; as OpenAPI 3.1 or 3.0 (paths under `servers: /v2`) or
 * Swagger 2.0 (`basePath: /v2`), in JSON or YAML.
 */
import { stringify as yamlText } from "yaml";
import type { ApiResponse } from "../api/types.ts";
import type { Conventions } from "./dimensions.ts";

/** Where each `description` value serves the document (its JSON name; a YAML format serves `.yaml`). */
export const DESCRIPTION_PATHS = {
  "openapi-json": "/openapi.json",
  "well-known": "/.well-known/openapi.json",
  "link-header": "/api/spec.json",
} as const;

/** Where the point `c` serves its description, or undefined when it serves none. */
export function descriptionPath(c: Conventions): string | undefined {
  if (c.description === "none") return undefined;
  let path: string = DESCRIPTION_PATHS[c.description];
  if (c.descriptionFormat.startsWith("swagger-") && c.description === "openapi-json") path = "/swagger.json";
  return c.descriptionFormat.endsWith("-yaml") ? path.replace(/\.json$/, ".yaml") : path;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const ANSWERS = { default: { description: "See the service's conventions: list envelopes, statuses and formats are not described here." } };
const POD_ID = [{ name: "podId", in: "path", required: true, schema: { type: "string" } }];

function operations(ops: unknown): Json {
  if (!isObject(ops)) return {};
  return Object.fromEntries(Object.entries(ops).map(([method, op]) => [method, isObject(op) ? { ...op, responses: ANSWERS } : op]));
}

/** The emulator's document `doc` as the point `c` serves it (OpenAPI 3.1, before its format). */
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

/** A JSON Schema 2020-12 (OpenAPI 3.1) schema as OpenAPI 3.0 or Swagger 2.0 writes it. */
function olderSchema(s: unknown, refBase: string, depth = 0): unknown {
  if (depth > 40) return s;
  if (Array.isArray(s)) return s.map((v) => olderSchema(v, refBase, depth + 1));
  if (!isObject(s)) return s;
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === "$schema" || k === "$id" || k === "examples") continue;
    if (k === "$ref" && typeof v === "string") out[k] = v.replace("#/components/schemas/", refBase);
    else if (k === "const") out["enum"] = [v];
    else if (k === "type" && Array.isArray(v)) {
      const types = v.filter((t) => t !== "null");
      if (types.length === 1) out["type"] = types[0];
      if (types.length < v.length) out[refBase === "#/definitions/" ? "x-nullable" : "nullable"] = true;
    } else out[k] = olderSchema(v, refBase, depth + 1);
  }
  return out;
}

/** Paths under /v2, relative to it (a description names its base once: servers or basePath). */
function underV2(paths: Json): Json {
  return Object.fromEntries(Object.entries(paths).filter(([p]) => p.startsWith("/v2/")).map(([p, ops]) => [p.slice(3), ops]));
}

function openApi30(doc: Json): Json {
  const { jsonSchemaDialect: _dialect, servers: _servers, ...rest } = doc;
  return { ...(olderSchema(rest, "#/components/schemas/") as Json), openapi: "3.0.3", servers: [{ url: "/v2", description: "the REST interface, version 2.0.0" }], paths: underV2(isObject(doc["paths"]) ? doc["paths"] : {}) };
}

function swagger20(doc: Json): Json {
  const paths = underV2(isObject(doc["paths"]) ? doc["paths"] : {});
  const swaggerPaths: Json = {};
  for (const [path, ops] of Object.entries(paths)) {
    const out: Json = {};
    for (const [method, op] of Object.entries(isObject(ops) ? ops : {})) {
      if (!isObject(op)) continue;
      const { requestBody, parameters, ...rest } = op;
      const params = (Array.isArray(parameters) ? parameters : []).map((p) => {
        if (!isObject(p)) return p;
        const { schema, ...named } = p;
        return { ...named, ...(isObject(schema) ? (olderSchema(schema, "#/definitions/") as Json) : { type: "string" }) };
      });
      const body = isObject(requestBody) && isObject(requestBody["content"]) ? Object.values(requestBody["content"])[0] : undefined;
      if (isObject(body)) params.push({ name: "body", in: "body", required: requestBody !== undefined && (requestBody as Json)["required"] === true, schema: olderSchema(body["schema"], "#/definitions/") });
      out[method] = { ...rest, ...(params.length ? { parameters: params } : {}) };
    }
    swaggerPaths[path] = out;
  }
  const components = isObject(doc["components"]) ? doc["components"] : {};
  return {
    swagger: "2.0",
    info: doc["info"],
    basePath: "/v2",
    consumes: ["application/json"],
    produces: ["application/json", "application/problem+json"],
    securityDefinitions: { bearer: { type: "apiKey", in: "header", name: "Authorization", description: "`Bearer <API_KEY>`" } },
    security: [{ bearer: [] }],
    paths: swaggerPaths,
    definitions: olderSchema(components["schemas"] ?? {}, "#/definitions/"),
  };
}

/** The answer carrying the document `doc` (already `describedRoutes`) in the point's format. */
export function describedAnswer(c: Conventions, r: ApiResponse): ApiResponse {
  if (r.status !== 200 || !isObject(r.body)) return r;
  const f = c.descriptionFormat;
  const doc = f.startsWith("swagger-") ? swagger20(r.body) : f.startsWith("openapi-3.0") ? openApi30(r.body) : r.body;
  if (!f.endsWith("-yaml")) return { ...r, body: doc };
  return { ...r, headers: { ...r.headers, "content-type": "application/yaml" }, body: yamlText(doc, { aliasDuplicateObjects: false, lineWidth: 0 }) };
}
