/** What every resolver receives as graphql-js's `contextValue`: the platform, the caller, the time. */
import type { Micros } from "../../core/index.ts";
import type { Platform } from "../../domain/platform.ts";
import type { Principal } from "../op-context.ts";

export interface ResolverContext {
  readonly platform: Platform;
  readonly principal: Principal;
  readonly now: Micros;
}
