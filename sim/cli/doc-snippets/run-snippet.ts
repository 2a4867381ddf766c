/**
 * Runs one documentation snippet as a user's shell would (bash -euo pipefail; a js block as an ES
 * module under node) in a session of its own, so that every process it starts can be found
 * afterwards: processes still in that session once the snippet has ended are reported as
 * leftovers (and then killed, by pid), so a snippet that leaves a server running fails its test.
 */
import { execFileSync, spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";

export interface SnippetRun {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Processes the snippet started that were still running after it ended ("pid args"). */
  leftovers: string[];
}

const MAX_OUTPUT = 1 << 20;
/** How long processes of the session may take to exit once the snippet's shell has ended. */
const SETTLE_MS = 10_000;

/** The processes of session `sid` ("pid args" each), from ps. */
function sessionProcesses(sid: number): string[] {
  const out = execFileSync("ps", ["-e", "-o", "pid=,sid=,args="], { encoding: "utf8" });
  return out
    .split("\n")
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && Number(m[2]) === sid && !m[3].startsWith("ps "))
    .map((m) => `${m[1]} ${m[3]}`);
}

export async function runSnippet(
  lang: "shell" | "script",
  source: string,
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; settleMs?: number },
): Promise<SnippetRun> {
  const settleMs = opts.settleMs ?? SETTLE_MS;
  const [cmd, args] = lang === "shell" ? ["bash", ["-euo", "pipefail", "-c", source]] : [process.execPath, ["--input-type=module", "-e", source]];
  const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const sid = child.pid as number;
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => { if (stdout.length < MAX_OUTPUT) stdout += d.toString(); });
  child.stderr.on("data", (d: Buffer) => { if (stderr.length < MAX_OUTPUT) stderr += d.toString(); });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try { process.kill(-sid, "SIGKILL"); } catch { /* already gone */ }
  }, opts.timeoutMs);
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on("exit", (c, s) => resolve([c, s])));
  clearTimeout(timer);
  // What the snippet started may take a moment to exit after a kill; anything still there after
  // SETTLE_MS was left running.
  let left = sessionProcesses(sid);
  for (let waited = 0; left.length > 0 && waited < settleMs; waited += 100) {
    await sleep(100);
    left = sessionProcesses(sid);
  }
  for (const p of left) {
    try { process.kill(Number(p.split(" ")[0]), "SIGKILL"); } catch { /* gone meanwhile */ }
  }
  // The pipes close once every process that held them is gone.
  if (child.stdout.readable || child.stderr.readable) await Promise.race([new Promise((r) => child.on("close", r)), sleep(settleMs)]);
  return { code, signal, stdout, stderr, timedOut, leftovers: left };
}
