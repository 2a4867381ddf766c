/**
 * For the pod checks' tests only: the emulator with a broken (or differently chosen) behaviour.
 * `wrapBackend` puts a hook before and after the real backend's `handle`: the request hook may
 * answer by itself or rewrite the request, the response hook may rewrite the answer. The target
 * keeps running after a conform run, so a failure's curl script can be replayed against it.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { ApiRequest, ApiResponse } from "../../../sim/api/types.ts";
import { respond } from "../../../sim/api/types.ts";
import type { EmulatorBackend } from "../../../sim/http/backend.ts";
import { startEmulator } from "../../../sim/http/index.ts";
import { PlatformBackend } from "../../../sim/http/platform-backend.ts";
import type { ConformanceReport, ReportFailure } from "../../../reports/conformance-report.ts";
import { conform } from "../../conform.ts";
import { embeddedCatalog } from "../../embedded.ts";
import type { Profile } from "../../options.ts";
import { breakBackend } from "../broken-target.ts";

export interface Breakage {
  /** Answers the request itself (a response), rewrites it (a request), or lets it through (undefined). */
  readonly request?: (req: ApiRequest, inner: EmulatorBackend) => ApiRequest | ApiResponse | undefined;
  readonly response?: (req: ApiRequest, res: ApiResponse) => ApiResponse;
}

export function wrapBackend(inner: EmulatorBackend, b: Breakage): EmulatorBackend {
  return breakBackend(inner, (req, next) => {
    const pre = b.request?.(req, inner);
    if (pre && "status" in pre) return respond(pre);
    const request = pre ?? req;
    const outcome = next(request);
    return outcome.kind === "response" && b.response ? respond(b.response(request, outcome.response)) : outcome;
  });
}

/** A Pod record in an answer (a single pod or each of a list), rewritten by `edit`. */
export function editPods(res: ApiResponse, edit: (pod: Record<string, any>) => void): ApiResponse {
  const body = res.body as Record<string, any> | undefined;
  if (!body || typeof body !== "object") return res;
  const copy = JSON.parse(JSON.stringify(body)) as Record<string, any>;
  if (Array.isArray(copy.pods)) copy.pods.forEach(edit);
  else if (typeof copy.id === "string" && "status" in copy) edit(copy);
  return { ...res, body: copy };
}

export const isPodPath = (req: ApiRequest): boolean => /^\/v2\/pods(\/[^/]+)?$/.test(req.path);

export interface TestTarget {
  readonly url: string;
  readonly keys: { readonly api: string; readonly restricted: string; readonly other: string };
  close(): Promise<void>;
}

export async function startTarget(b: Breakage = {}): Promise<TestTarget> {
  const catalog = embeddedCatalog();
  const key = (account: string, access: string) => catalog.accounts.find((a) => a.id === account)!.keys.find((k) => k.access === access)!.key;
  const emulator = await startEmulator({
    host: "127.0.0.1",
    port: 0,
    seed: 1,
    clock: "manual",
    control: true,
    createBackend: (o) => wrapBackend(new PlatformBackend({ ...o, catalog }), b),
  });
  return {
    url: emulator.baseUrl,
    keys: { api: key("acct-alpha", "full"), restricted: key("acct-alpha", "read-only"), other: key("acct-beta", "full") },
    close: () => emulator.close(),
  };
}

/** Runs the given rules against the target, reports into a temporary directory. */
export async function runChecks(target: TestTarget, only: string | readonly string[], profile: Profile, runs?: number, seed = 1): Promise<ConformanceReport> {
  const dir = await mkdtemp(join(tmpdir(), "cpsim-pods-"));
  try {
    const { report } = await conform(
      {
        target: target.url,
        apiKey: target.keys.api,
        restrictedApiKey: target.keys.restricted,
        otherApiKey: target.keys.other,
        only: typeof only === "string" ? [only] : [...only],
        profile,
        seed,
        ...(runs ? { runs } : {}),
        reportDir: dir,
      },
      { controlApi: true },
    );
    return report;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs a failure's curl script with bash against the target; its stdout. */
export async function replay(failure: ReportFailure, target: TestTarget): Promise<string> {
  const { stdout } = await promisify(execFile)("bash", ["-c", failure.reproduction.curl], {
    env: { ...process.env, CPSIM_API_KEY: target.keys.api, CPSIM_RESTRICTED_API_KEY: target.keys.restricted, CPSIM_OTHER_API_KEY: target.keys.other },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}
