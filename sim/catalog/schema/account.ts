/**
 * An account (the platform's "user"): its API keys and its rate-limit quotas.
 *
 * Keys are fixtures, not secrets: deterministic readable strings that tests and load runs name.
 * `exempt` is a simulator-only access level: full access and no rate limit, so load runs measure
 * the emulator and not the limiter.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Id, Name, Nullable, StringEnum } from "./common.ts";

export const KEY_ACCESS = ["full", "read-only", "exempt"] as const;

export const ApiKeySchema = Type.Object(
  {
    key: Type.String({ pattern: "^[A-Za-z0-9_]{16,}$" }),
    access: StringEnum(KEY_ACCESS),
    name: Name,
  },
  { additionalProperties: false, title: "ApiKey" },
);

/** Requests allowed per window; the windows are 60, 3600 and 86400 seconds long. */
export const RateLimitsSchema = Type.Object(
  {
    minute: Type.Integer({ minimum: 1 }),
    hour: Type.Integer({ minimum: 1 }),
    day: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false, title: "RateLimits" },
);

export const AccountSchema = Type.Object(
  {
    id: Id,
    name: Name,
    keys: Type.Array(ApiKeySchema, { minItems: 1 }),
    /** null: no limit, allowed only when every key of the account is exempt. */
    rateLimits: Nullable(RateLimitsSchema),
  },
  { additionalProperties: false, title: "Account" },
);

export type ApiKeyRecord = Static<typeof ApiKeySchema>;
export type RateLimitsRecord = Static<typeof RateLimitsSchema>;
export type AccountRecord = Static<typeof AccountSchema>;
