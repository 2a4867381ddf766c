/**
 * `--handler ENDPOINT_ID=FILE` specs, and the catalog endpoints they run on: an id already in the
 * catalog keeps its configuration (workers, scaler, timeouts) and only its handler changes; a new
 * id gets the built-in conformance endpoint's configuration, shared by every account, without a
 * model cold start (the real thread or process start is the cold start).
 */
import { type Catalog, RESERVED_ENDPOINT_IDS } from "../catalog/index.ts";
import type { Endpoint } from "../catalog/catalog.ts";

export interface HandlerSpec {
  readonly endpointId: string;
  readonly file: string;
}

const ID = /^[a-z0-9][a-z0-9.-]*$/;

/** Parses `ID=FILE`; throws an Error whose message says what is wrong. */
export function parseHandlerSpec(text: string): HandlerSpec {
  const eq = text.indexOf("=");
  if (eq <= 0 || eq === text.length - 1) throw new Error(`--handler ${text}: expected ENDPOINT_ID=FILE, e.g. --handler my-endpoint=handler.py`);
  const endpointId = text.slice(0, eq);
  const file = text.slice(eq + 1);
  if (!ID.test(endpointId)) throw new Error(`--handler ${text}: the endpoint id must be lowercase letters, digits, "." and "-", starting with a letter or digit`);
  if (RESERVED_ENDPOINT_IDS.includes(endpointId)) throw new Error(`--handler ${text}: "${endpointId}" is a reserved path segment, not an endpoint id`);
  return { endpointId, file };
}

/** The catalog with an endpoint for every spec (existing ones kept, new ones added). */
export function withHandlerEndpoints(catalog: Catalog, specs: readonly HandlerSpec[]): Catalog {
  const seen = new Set<string>();
  const added: Endpoint[] = [];
  const template = catalog.endpoints.find((e) => e.id === "conformance") ?? catalog.endpoints.find((e) => !e.public);
  for (const spec of specs) {
    if (seen.has(spec.endpointId)) throw new Error(`--handler: endpoint ${spec.endpointId} is given twice`);
    seen.add(spec.endpointId);
    const existing = catalog.endpoints.find((e) => e.id === spec.endpointId || e.slug === spec.endpointId);
    if (existing !== undefined) {
      if (existing.id !== spec.endpointId) throw new Error(`--handler: ${spec.endpointId} is the slug of endpoint ${existing.id}; use its id`);
      continue;
    }
    if (template === undefined) throw new Error("--handler: the catalog has no private endpoint to copy a configuration from");
    added.push({ ...template, id: spec.endpointId, name: `handler ${spec.file}`, accountId: null, public: false, slug: null, coldStartMs: { mean: 0, cv: 0 } });
  }
  return added.length === 0 ? catalog : { ...catalog, endpoints: [...catalog.endpoints, ...added] };
}
