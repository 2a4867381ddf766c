/**
 * What every operation receives: the platform, the request, the route's path parameters and the
 * authenticated caller, at the model's current time. Operations are plain functions
 * `(ctx) → ApiOutcome`, registered by the route's `op` name.
 */
import type { Micros } from "../core/index.ts";
import type { Platform } from "../domain/platform.ts";
import type { KeyAccess } from "../domain/accounts/index.ts";
import type { ApiOutcome, ApiRequest } from "./types.ts";

export interface Principal {
  readonly accountId: string;
  readonly access: KeyAccess;
}

export interface OpContext {
  readonly platform: Platform;
  readonly request: ApiRequest;
  readonly params: Readonly<Record<string, string>>;
  /** The caller; operations with auth "none" get an anonymous principal with accountId "". */
  readonly principal: Principal;
  readonly now: Micros;
}

export type Operation = (ctx: OpContext) => ApiOutcome;

export type OperationTable = Readonly<Record<string, Operation>>;
