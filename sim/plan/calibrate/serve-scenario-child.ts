/**
 * For tests: `cpsim serve --clock real --scenario FILE` in a process of its own, as the calibrator
 * meets a real endpoint (a URL only, settings it is not given). Killed at the test's teardown.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Test } from "tap";
import { packagePath } from "../../package-root.ts";
import { defaultLimits } from "../../http/options.ts";

/**
 * How long after SIGTERM the child is killed outright: past the emulator's own grace for requests
 * in flight (it drops their connections after `closeGraceMs`, then exits), with room for a busy
 * machine to run that close, so a child stopping as designed is never cut short by the kill.
 */
export const CHILD_KILL_AFTER_MS = defaultLimits.closeGraceMs + 10_000;

export interface ServedScenario {
  readonly baseUrl: string;
  readonly serverlessUrl: string;
  /** The folder holding the scenario file, free for the test's own files. */
  readonly dir: string;
}

export async function serveScenarioInChild(t: Test, scenario: unknown): Promise<ServedScenario> {
  const dir = mkdtempSync(join(tmpdir(), "cpsim-hidden-"));
  writeFileSync(join(dir, "hidden.json"), JSON.stringify(scenario));
  const ready = join(dir, "ready.json");
  const child = spawn(process.execPath, [packagePath("bin", "cpsim.js"), "serve", "--port", "0", "--clock", "real", "--scenario", join(dir, "hidden.json"), "--ready-file", ready], { stdio: "ignore" });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  t.teardown(async () => {
    child.kill("SIGTERM");
    // Under heavy machine load the server has been seen to keep one socket open past its close
    // (the process then never exits): killed outright once its own grace and a margin are over.
    const kill = setTimeout(() => child.kill("SIGKILL"), CHILD_KILL_AFTER_MS);
    await exited;
    clearTimeout(kill);
  });
  // Up to 120 s for the child to start on a busy machine: a count of polls, not a verdict on speed.
  for (let i = 0; i < 1200 && !existsSync(ready); i++) await new Promise((r) => setTimeout(r, 100));
  const em = JSON.parse(readFileSync(ready, "utf8")) as { baseUrl: string; serverlessUrl: string };
  return { baseUrl: em.baseUrl, serverlessUrl: em.serverlessUrl, dir };
}
