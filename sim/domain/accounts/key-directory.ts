/**
 * API key → account lookup, built once from the catalog's accounts. Keys are unique across the
 * catalog (the loader checks it); a Map makes each lookup O(1) and the table is bounded by the
 * catalog.
 */
import { parseAuthorization } from "./authorization.ts";

export type KeyAccess = "full" | "read-only" | "exempt";

export interface KeyInfo {
  readonly accountId: string;
  readonly access: KeyAccess;
}

export interface KeyedAccount {
  readonly id: string;
  readonly keys: readonly { readonly key: string; readonly access: KeyAccess }[];
}

export type Authentication =
  | { readonly ok: true; readonly accountId: string; readonly access: KeyAccess }
  | { readonly ok: false; readonly error: "missing" | "malformed" | "invalid" };

export class KeyDirectory {
  private readonly byKey = new Map<string, KeyInfo>();
  /** `Bearer <key>` exactly, as clients send it, answered without parsing (a `--state` replay authenticates a million). */
  private readonly byBearer = new Map<string, Authentication>();

  constructor(accounts: readonly KeyedAccount[]) {
    for (const account of accounts) {
      for (const { key, access } of account.keys) {
        this.byKey.set(key, Object.freeze({ accountId: account.id, access }));
        // Only where parsing gives the same key: the answer is the one the long way gives.
        const parsed = parseAuthorization(`Bearer ${key}`);
        if (parsed.kind === "key" && parsed.key === key) this.byBearer.set(`Bearer ${key}`, Object.freeze({ ok: true, accountId: account.id, access }));
      }
    }
  }

  lookup(key: string): KeyInfo | undefined {
    return this.byKey.get(key);
  }

  /** Header value → the caller, or why not (each case is a 401 upstream). */
  authenticate(header: string | readonly string[] | undefined): Authentication {
    const known = typeof header === "string" ? this.byBearer.get(header) : undefined;
    if (known !== undefined) return known;
    const parsed = parseAuthorization(header);
    if (parsed.kind === "missing") return { ok: false, error: "missing" };
    if (parsed.kind === "malformed") return { ok: false, error: "malformed" };
    const info = this.byKey.get(parsed.key);
    if (info === undefined) return { ok: false, error: "invalid" };
    return { ok: true, accountId: info.accountId, access: info.access };
  }
}

/** Whether a key may perform a write (run, cancel, retry, purge): read-only keys may not (403). */
export function canWrite(access: KeyAccess): boolean {
  return access !== "read-only";
}
