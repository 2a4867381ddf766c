/**
 * Test-only: the embedded emulator, optionally broken by a wrapper around its backend that
 * rewrites a request before the model sees it or a response after, so the tests can show that
 * the suite names the right rule. The target stays up after `conform` returns (its close is a
 * no-op there), so a test can run a failure's curl script against it; `stop()` ends it.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApiRequest, ApiResponse } from "../../../sim/api/types.ts";
import { conform, type EmbeddedTarget } from "../../conform.ts";
import { checks } from "../../check-registry.ts";
import type { Profile } from "../../options.ts";
import { startBroken, type Breakage, type BrokenTarget } from "../broken-target.ts";

export type { Breakage };

/** A breakage that only touches responses: `edit` gets the request and the response. */
export function editResponse(edit: (request: ApiRequest, response: ApiResponse) => ApiResponse): Breakage {
  return (request, next) => {
    const out = next(request);
    return out.kind === "response" ? { kind: "response", response: edit(request, out.response) } : out;
  };
}

export const isCreatePod = (r: ApiRequest): boolean => r.method === "POST" && r.path === "/v2/pods";

export interface TestTarget {
  /** For conform's deps.startEmbedded. */
  readonly start: () => Promise<EmbeddedTarget>;
  /** The running target (after start). */
  target(): EmbeddedTarget;
  stop(): Promise<void>;
}

export function testTarget(breakage?: Breakage, seed = 1): TestTarget {
  let running: BrokenTarget | undefined;
  return {
    start: async () => (running = await startBroken(breakage, seed)),
    target: () => {
      if (!running) throw new Error("the test target was not started");
      return running;
    },
    stop: async () => {
      await running?.stop();
    },
  };
}

/**
 * Runs the registered rules matching `only` (seed 1) against a fresh test target broken by
 * `breakage`, and stops the target. The caller imports the check areas it needs (their
 * index.ts registers them).
 */
export async function runOnTestTarget(breakage: Breakage | undefined, only: readonly string[], profile: Profile = "lenient") {
  const target = testTarget(breakage);
  try {
    const { report } = await conform(
      { only: [...only], seed: 1, profile, reportDir: mkdtempSync(join(tmpdir(), "cpsim-test-target-")) },
      { registry: checks, startEmbedded: target.start },
    );
    return report;
  } finally {
    await target.stop();
  }
}

/** The rule globs of this area's create, error, catalog and versioning checks. */
export const AREA_GLOBS = ["pods.create.*", "errors.*", "catalog.*", "versioning.*"] as const;
