/**
 * Test harness of this folder (not used outside tests): a platform on the bundled catalog behind
 * PlatformApi with the REST operations (every other route answers 501), a `call` that returns the
 * response, and a validator that knows every record schema plus this folder's own.
 */
import type { Micros } from "../../../core/index.ts";
import { loadCatalog, type Catalog } from "../../../catalog/index.ts";
import { Platform, type PlatformOptions } from "../../../domain/platform.ts";
import type { OperationTable } from "../../op-context.ts";
import { PlatformApi } from "../../platform-api.ts";
import { problem } from "../../problem.ts";
import { routes } from "../../routes.ts";
import { createValidator, type SchemaValidator } from "../../schemas/index.ts";
import { respond, type ApiResponse, type HttpMethod } from "../../types.ts";
import { restOperations } from "./index.ts";
import { restResourceSchemas } from "./resource-schemas.ts";

export const KEYS = {
  alpha: "cpsim_alpha_full_7f3a9c2e41b6d805",
  alphaRead: "cpsim_alpha_read_2c8e5b1f9a3d6047",
  beta: "cpsim_beta_full_91d4e6a2c7b3f058",
  exempt: "cpsim_load_exempt_5b0e8d3a6c1f9247",
} as const;

let catalog: Catalog | undefined;
export function bundledCatalog(): Catalog {
  return (catalog ??= loadCatalog());
}

/** Every route's operation: this folder's, and 501 for the rest. */
export function testOperations(): OperationTable {
  const table: Record<string, OperationTable[string]> = {};
  for (const r of routes) table[r.op] = () => respond(problem(501, `${r.op} is not part of this test.`));
  return { ...table, ...restOperations };
}

export interface CallOptions {
  readonly key?: string;
  readonly body?: unknown;
  readonly query?: Readonly<Record<string, string>>;
}

export interface Harness {
  readonly platform: Platform;
  readonly api: PlatformApi;
  call(method: HttpMethod, path: string, options?: CallOptions): ApiResponse;
  /** Moves virtual time forward by `us` microseconds. */
  advance(us: Micros): void;
}

export function harness(options: Omit<PlatformOptions, "catalog" | "seed"> & { seed?: number } = {}): Harness {
  const platform = new Platform({ ...options, seed: options.seed ?? 1, catalog: bundledCatalog() });
  const api = new PlatformApi(platform, testOperations());
  return {
    platform,
    api,
    call(method, path, { key = KEYS.alpha, body, query = {} } = {}) {
      const outcome = api.handle({ method, path, query, headers: { authorization: `Bearer ${key}` }, body });
      if (outcome.kind !== "response") throw new Error(`${method} ${path} answered a wait`);
      return outcome.response;
    },
    advance(us) {
      platform.advanceTo(platform.now + us);
    },
  };
}

let shared: SchemaValidator | undefined;
/** A validator of every record schema, this folder's included. */
export function validator(): SchemaValidator {
  if (!shared) {
    shared = createValidator();
    for (const s of restResourceSchemas) if (shared.ajv.getSchema(s.$id as string) === undefined) shared.ajv.addSchema(s);
  }
  return shared;
}

/** The schema failures of `body` against the schema `id` (empty when valid). */
export function schemaErrors(id: string, body: unknown): string[] {
  return validator().validate(id, body).errors;
}

/** The failures of an ad-hoc schema (the catalog view shapes), compiled once per schema object. */
const compiled = new WeakMap<object, ReturnType<SchemaValidator["ajv"]["compile"]>>();
export function shapeErrors(schema: object, body: unknown): string[] {
  let check = compiled.get(schema);
  if (!check) compiled.set(schema, (check = validator().ajv.compile(schema)));
  return check(body) ? [] : (check.errors ?? []).map((e) => `${e.instancePath || "/"}: ${e.message ?? e.keyword}`);
}

/** Why a response is not the problem+json it should be (empty when it is). */
export function problemErrors(response: ApiResponse, status: number): string[] {
  const out: string[] = [];
  if (response.status !== status) out.push(`status ${response.status}, expected ${status}: ${JSON.stringify(response.body)}`);
  if (response.headers["content-type"] !== "application/problem+json") out.push(`content-type ${response.headers["content-type"]}`);
  out.push(...schemaErrors("cpsim:ErrorResponse", response.body));
  const body = response.body as { status?: unknown; detail?: unknown };
  if (body?.status !== status) out.push(`body.status ${String(body?.status)}`);
  if (typeof body?.detail !== "string" || body.detail.length < 20) out.push(`detail too short: ${String(body?.detail)}`);
  return out;
}

/** A valid GPU pod body (RTX 4090 is well stocked in the bundled secure cloud). */
export function gpuPodBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: "test-gpu", image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04", gpu: { id: "NVIDIA GeForce RTX 4090" }, ...extra };
}

/** A valid CPU pod body. */
export function cpuPodBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: "test-cpu", image: "ubuntu:22.04", cpu: { id: "cpu3c", vcpuCount: 2 }, ...extra };
}
