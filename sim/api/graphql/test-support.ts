/**
 * Shared pieces of the GraphQL tests: a platform, callers of each key kind, a `run` that executes
 * a document and checks the answer's envelope against the JSON Schemas, and record checks.
 */
import { loadCatalog } from "../../catalog/index.ts";
import { Platform, type PlatformOptions } from "../../domain/platform.ts";
import type { Principal } from "../op-context.ts";
import { createValidator } from "../schemas/index.ts";
import type { ApiResponse } from "../types.ts";
import { executeGraphql, type ExecuteOptions } from "./execute-graphql.ts";

export const catalog = loadCatalog();
export const validator = createValidator();

export const ALPHA: Principal = { accountId: "acct-alpha", access: "full" };
export const ALPHA_READ: Principal = { accountId: "acct-alpha", access: "read-only" };
export const BETA: Principal = { accountId: "acct-beta", access: "full" };

export function newPlatform(options: Partial<PlatformOptions> = {}): Platform {
  // No container failures unless a test asks: lifecycle tests want RUNNING, not a 1% ERROR.
  return new Platform({ seed: 1, catalog, pods: { failureRate: 0 }, ...options });
}

export interface GqlAnswer {
  readonly status: number;
  readonly response: ApiResponse;
  readonly body: { data?: Record<string, any> | null; errors?: Array<{ message: string; extensions: { code: string } & Record<string, unknown> }> };
}

/** Every answer is JSON and either the data envelope or the errors envelope; anything else throws. */
export function checkEnvelope(response: ApiResponse): void {
  if (response.headers["content-type"] !== "application/json") throw new Error(`content-type ${response.headers["content-type"]}`);
  const body = response.body as Record<string, unknown>;
  const id = body.errors !== undefined ? "cpsim:GraphqlErrorEnvelope" : "cpsim:GraphqlDataEnvelope";
  const v = validator.validate(id, body);
  if (!v.ok) throw new Error(`${id}: ${v.errors.join("; ")} in ${JSON.stringify(body)}`);
  if (body.errors) for (const e of body.errors as Array<{ extensions?: { code?: unknown } }>) if (typeof e.extensions?.code !== "string") throw new Error("error without code");
}

export function gql(
  platform: Platform,
  principal: Principal,
  query: string,
  variables?: Record<string, unknown>,
  options: ExecuteOptions & { operationName?: string } = {},
): GqlAnswer {
  const request = { query, ...(variables ? { variables } : {}), ...(options.operationName ? { operationName: options.operationName } : {}) };
  const response = executeGraphql(platform, principal, request, platform.now, options);
  checkEnvelope(response);
  return { status: response.status, response, body: response.body as GqlAnswer["body"] };
}

/** Throws with the schema's findings when `value` does not satisfy the record schema `name`. */
export function checkRecord(name: "GraphqlPod" | "GraphqlGpuType" | "GraphqlLowestPrice" | "GraphqlPodRuntime", value: unknown): void {
  const v = validator.validate(`cpsim:${name}`, value);
  if (!v.ok) throw new Error(`${name}: ${v.errors.join("; ")} in ${JSON.stringify(value)}`);
}

export const RTX4090 = "NVIDIA GeForce RTX 4090";
