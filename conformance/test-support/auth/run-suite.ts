/**
 * Test-only: runs this area's rules with `conform()` against a given target (the embedded
 * emulator by default) and replays a failure's curl script with bash against it.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { conform, type ConformResult, type EmbeddedTarget } from "../../conform.ts";
import { startEmbedded } from "../../embedded.ts";
import { KEY_ENV, KEY_ROLES, type Keys } from "../../keys.ts";
import type { Profile } from "../../options.ts";
import "../../checks/auth/index.ts";

export interface SuiteRun {
  readonly only?: readonly string[];
  readonly profile?: Profile;
  readonly seed?: number;
  readonly runs?: number;
  readonly target?: EmbeddedTarget;
}

export function runSuite(run: SuiteRun = {}): Promise<ConformResult> {
  const target = run.target;
  return conform(
    {
      only: run.only ?? ["auth.*", "ratelimit.*"],
      profile: run.profile ?? "lenient",
      seed: run.seed ?? 1,
      runs: run.runs ?? 50,
      reportDir: mkdtempSync(join(tmpdir(), "cpsim-auth-")),
    },
    { startEmbedded: target ? async () => target : startEmbedded },
  );
}

/** Runs a curl reproduction with bash, the keys in its environment; its stdout and exit code. */
export function replay(script: string, keys: Keys): Promise<{ stdout: string; code: number }> {
  const file = join(mkdtempSync(join(tmpdir(), "cpsim-curl-")), "repro.sh");
  writeFileSync(file, script);
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
  for (const role of KEY_ROLES) if (keys[role]) env[KEY_ENV[role]] = keys[role] as string;
  return new Promise((resolve) => {
    execFile("bash", [file], { env, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => {
      resolve({ stdout, code: err ? ((err as { code?: number }).code ?? 1) : 0 });
    });
  });
}

/** The output of the script's last request: its status line, headers and body. */
export function lastAnswer(stdout: string): string {
  const blocks = stdout.split(/^### /m);
  return blocks[blocks.length - 1] ?? "";
}
