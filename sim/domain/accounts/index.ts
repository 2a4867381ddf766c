// Accounts and API keys: Authorization header parsing and key → account lookup.
export { parseAuthorization } from "./authorization.ts";
export type { AuthorizationParse } from "./authorization.ts";
export { KeyDirectory, canWrite } from "./key-directory.ts";
export type { Authentication, KeyAccess, KeyInfo, KeyedAccount } from "./key-directory.ts";
