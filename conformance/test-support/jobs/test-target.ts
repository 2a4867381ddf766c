/**
 * Test-only: this area's helpers over the shared broken target (test-support/broken-target.ts):
 * running the job checks against it and replaying a failure's curl script.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApiRequest } from "../../../sim/api/types.ts";
import { conform, type ConformResult, type EmbeddedTarget } from "../../conform.ts";
import { KEY_ENV, KEY_ROLES, type Keys } from "../../keys.ts";
import { mapResponse, startBroken, type BrokenTarget } from "../broken-target.ts";
import type { Profile } from "../../options.ts";
import "../../checks/jobs/index.ts";

export { breakBackend, type Breakage } from "../broken-target.ts";
/** The outcome with its answer changed by `change`, whether it came at once or after a wait. */
export const mapAnswer = mapResponse;
export type TestTarget = BrokenTarget;
export const startTarget = startBroken;

/** A job-endpoint path's operation (`run`, `status`, ...), or undefined for other paths. */
export function jobOp(request: ApiRequest): string | undefined {
  return /^\/v2\/[^/]+\/([a-z-]+)(?:\/[^/]+)?$/.exec(request.path)?.[1];
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
