/** What every resolver receives as graphql-js's `contextValue`: the platform, the caller, the time. */
import type { Micros } from "../../core/index.ts";
import type { Platform } from "../../domain/platform.ts";
import type { Principal } from "../op-context.ts";

export interface ResolverContext {
  readonly platform: Platform;
  readonly principal: Principal;
  readonly now: Micros;
  /** `http://host[:port]` the request reached, when its Host header names one (see originOf). */
  readonly origin?: string;
}

/** The origin a request reached, from its Host header; undefined for a missing or malformed one. */
export function originOf(host: string | undefined): string | undefined {
  return host !== undefined && /^[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?$/.test(host) ? `http://${host}` : undefined;
}
