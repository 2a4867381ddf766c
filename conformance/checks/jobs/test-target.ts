/**
 * Test-only: the embedded emulator, whole or with one behaviour broken, for this area's tests.
 * A Breakage sits in front of the real backend's `handle` and may answer instead of it or change
 * its answer (also the answer of a request that waited, runsync or status-sync). The target
 * outlives `conform()` (its close is a no-op), so a test can replay a failure's curl script
 * against it before `stop()`.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCatalog } from "../../../sim/catalog/index.ts";
import type { ApiOutcome, ApiRequest, ApiResponse } from "../../../sim/api/types.ts";
import { startEmulator, type EmulatorBackend } from "../../../sim/http/index.ts";
import { PlatformBackend } from "../../../sim/http/platform-backend.ts";
import { conform, type ConformResult, type EmbeddedTarget } from "../../conform.ts";
import { embeddedCatalog } from "../../embedded.ts";
import { KEY_ENV, KEY_ROLES, type Keys } from "../../keys.ts";
import type { Profile } from "../../options.ts";
import "./index.ts";

export type Breakage = (request: ApiRequest, next: (request: ApiRequest) => ApiOutcome) => ApiOutcome;

export function breakBackend(inner: EmulatorBackend, breakage: Breakage): EmulatorBackend {
  return {
    now: () => inner.now(),
    advanceTo: (t) => inner.advanceTo(t),
    nextEventTime: () => inner.nextEventTime(),
    handle: (request) => breakage(request, (r) => inner.handle(r)),
    onJobFinal: (e, j, l) => inner.onJobFinal(e, j, l),
    drainWebhooks: () => inner.drainWebhooks(),
    webhookResult: (d, ok) => inner.webhookResult(d, ok),
    reset: (seed) => inner.reset(seed),
    apiKeys: () => inner.apiKeys(),
    routes: () => inner.routes(),
  };
}

/** The outcome with its answer changed by `change`, whether it came at once or after a wait. */
export function mapAnswer(outcome: ApiOutcome, change: (r: ApiResponse) => ApiResponse): ApiOutcome {
  return outcome.kind === "response" ? { kind: "response", response: change(outcome.response) } : { ...outcome, render: (t) => change(outcome.render(t)) };
}

/** A job-endpoint path's operation (`run`, `status`, ...), or undefined for other paths. */
export function jobOp(request: ApiRequest): string | undefined {
  return /^\/v2\/[^/]+\/([a-z-]+)(?:\/[^/]+)?$/.exec(request.path)?.[1];
}

export interface TestTarget extends EmbeddedTarget {
  readonly keys: Keys;
  stop(): Promise<void>;
}

export async function startTarget(breakage?: Breakage, seed = 1): Promise<TestTarget> {
  const catalog = embeddedCatalog(loadCatalog());
  const emulator = await startEmulator({
    host: "127.0.0.1",
    port: 0,
    seed,
    clock: "manual",
    control: true,
    createBackend: (o) => {
      const backend = new PlatformBackend({ ...o, catalog });
      return breakage ? breakBackend(backend, breakage) : backend;
    },
  });
  const keyOf = (account: string, access: string) => catalog.accounts.find((a) => a.id === account)?.keys.find((k) => k.access === access)?.key;
  return {
    rest: emulator.baseUrl,
    serverless: emulator.serverlessUrl,
    keys: { api: keyOf("acct-alpha", "full"), restricted: keyOf("acct-alpha", "read-only"), other: keyOf("acct-beta", "full") },
    endpoint: "conformance",
    controlApi: true,
    close: async () => {},
    stop: () => emulator.close(),
  };
}

export function runJobs(target: EmbeddedTarget, options: { only?: readonly string[]; profile?: Profile; seed?: number; runs?: number } = {}): Promise<ConformResult> {
  return conform(
    {
      only: options.only ?? ["jobs.*"],
      profile: options.profile ?? "lenient",
      seed: options.seed ?? 1,
      runs: options.runs ?? 50,
      reportDir: mkdtempSync(join(tmpdir(), "cpsim-jobs-")),
    },
    { startEmbedded: async () => target },
  );
}

/** Runs a curl reproduction with bash, the keys in its environment; its stdout and exit code. */
export function replay(script: string, keys: Keys): Promise<{ stdout: string; code: number }> {
  const file = join(mkdtempSync(join(tmpdir(), "cpsim-jobs-curl-")), "repro.sh");
  writeFileSync(file, script);
  const env: Record<string, string> = { PATH: process.env["PATH"] ?? "/usr/bin:/bin" };
  for (const role of KEY_ROLES) if (keys[role]) env[KEY_ENV[role]] = keys[role] as string;
  return new Promise((resolve) => {
    execFile("bash", [file], { env, timeout: 60_000, maxBuffer: 256 * 1024 * 1024 }, (err, stdout) => {
      resolve({ stdout, code: err ? ((err as { code?: number }).code ?? 1) : 0 });
    });
  });
}

/** The output of the script's last request: its status line, headers and body. */
export function lastAnswer(stdout: string): string {
  const blocks = stdout.split(/^### /m);
  return blocks[blocks.length - 1] ?? "";
}
