/**
 * Test-only: the emulator with one behaviour broken, for the tests that show the suite names
 * the rule a broken implementation breaks. A `Breakage` sees each request before the model and
 * may rewrite it, and each answer after, and may rewrite that; everything else is the real
 * emulator (manual clock, control API, the embedded run's catalog and keys).
 */
import type { ApiRequest, ApiResponse } from "../../../sim/api/types.ts";
import type { EmulatorBackend } from "../../../sim/http/backend.ts";
import { startEmulator, type EmulatorHandle } from "../../../sim/http/index.ts";
import { PlatformBackend } from "../../../sim/http/platform-backend.ts";
import type { EmbeddedTarget } from "../../conform.ts";
import { embeddedCatalog } from "../../embedded.ts";
import type { Keys } from "../../keys.ts";
import { breakBackend } from "../broken-target.ts";

export interface Breakage {
  readonly request?: (req: ApiRequest, keys: Keys) => ApiRequest;
  readonly response?: (res: ApiResponse, req: ApiRequest) => ApiResponse;
}

/** The backend answering through `breakage`; every other call goes to the real one. */
export function wrapBackend(inner: EmulatorBackend, breakage: Breakage, keys: Keys): EmulatorBackend {
  return breakBackend(inner, (request, next) => {
    const req = breakage.request ? breakage.request(request, keys) : request;
    const out = next(req);
    if (out.kind !== "response" || !breakage.response) return out;
    return { kind: "response", response: breakage.response(out.response, req) };
  });
}

export interface BrokenTarget {
  readonly emulator: EmulatorHandle;
  readonly keys: Keys;
  /** For `conform`'s startEmbedded: the emulator stays up after the run, for curl replays. */
  readonly target: EmbeddedTarget;
}

export async function startBroken(breakage: Breakage): Promise<BrokenTarget> {
  const catalog = embeddedCatalog();
  const key = (account: string, access: "full" | "read-only") => catalog.accounts.find((a) => a.id === account)?.keys.find((k) => k.access === access)?.key;
  const keys: Keys = { api: key("acct-alpha", "full"), restricted: key("acct-alpha", "read-only"), other: key("acct-beta", "full") };
  const emulator = await startEmulator({
    host: "127.0.0.1",
    port: 0,
    seed: 1,
    clock: "manual",
    control: true,
    createBackend: (o) => wrapBackend(new PlatformBackend({ ...o, catalog }), breakage, keys),
  });
  return {
    emulator,
    keys,
    target: { rest: emulator.baseUrl, serverless: emulator.serverlessUrl, keys, endpoint: "conformance", controlApi: true, close: async () => {} },
  };
}

/** A GraphQL answer's body with `edit` applied to a deep copy of its `data`. */
export function editData(res: ApiResponse, req: ApiRequest, edit: (data: Record<string, any>) => void): ApiResponse {
  if (req.path !== "/graphql" || typeof res.body !== "object" || res.body === null) return res;
  const body = JSON.parse(JSON.stringify(res.body)) as { data?: Record<string, any> };
  if (body.data) edit(body.data);
  return { ...res, body };
}
