/**
 * The embedded emulator for `cpsim load` without --target, in a separate process so that the
 * load generator and the server never share an event loop (a shared loop would measure the sum
 * of both). It is `cpsim serve --json --port 0 --clock real`; the first line of its stdout says
 * where it listens and which keys it has.
 */
import { spawn } from "node:child_process";
import { packagePath } from "../sim/package-root.ts";
import { STOP_WITH_PARENT_ENV } from "../sim/cli/stop-signals.ts";

export interface ChildEmulator {
  readonly baseUrl: string;
  readonly serverlessUrl: string;
  readonly apiKeys: readonly { key: string; account: string; access: string }[];
  readonly pid: number;
  stop(): Promise<void>;
}

export class EmulatorStartError extends Error {
  override readonly name = "EmulatorStartError";
  readonly code = "CPSIM_ERR_LOAD_EMULATOR";
  readonly exitCode = 2;
}

const BIN = packagePath("bin", "cpsim.js");
// A bound on a hang, not on speed: a child that starts on a machine busy with other work can take a minute.
const START_TIMEOUT_MS = 180_000;
/**
 * The emulator's budget for job data held at once (inputs are kept for retry until a job's
 * retention ends: a minute after runsync). Its default, 256 MiB, would answer 503 to the
 * near-limit scenarios after about a dozen 20 MB runsync calls; a load run is bounded in time and
 * count, so it gets room for about a hundred.
 */
const RESULTS_BUDGET_MB = 2048;

export function startChildEmulator(seed: number): Promise<ChildEmulator> {
  // The IPC channel carries no message: the child stops when it closes, so a load run killed
  // (SIGTERM from a CI timeout, SIGKILL) leaves no emulator behind (sim/cli/stop-signals.ts).
  const child = spawn(process.execPath, [BIN, "serve", "--json", "--port", "0", "--clock", "real", "--seed", String(seed), "--results-budget-mb", String(RESULTS_BUDGET_MB)], {
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    env: { ...process.env, [STOP_WITH_PARENT_ENV]: "1" },
  });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => {
    if (stderr.length < 16_384) stderr += d;
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new EmulatorStartError(`the embedded emulator did not start within ${START_TIMEOUT_MS / 1000} s\n${stderr}`));
    }, START_TIMEOUT_MS);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new EmulatorStartError(`the embedded emulator exited with code ${code} before it listened\n${stderr}`));
    });
    child.stdout!.setEncoding("utf8").on("data", (d: string) => {
      if (out.includes("\n")) return;
      out += d;
      const nl = out.indexOf("\n");
      if (nl === -1) return;
      clearTimeout(timer);
      try {
        const info = JSON.parse(out.slice(0, nl)) as Omit<ChildEmulator, "stop" | "pid">;
        resolve({
          ...info,
          pid: child.pid ?? 0,
          async stop() {
            if (child.exitCode !== null || child.signalCode !== null) return;
            child.kill("SIGTERM");
            const force = setTimeout(() => child.kill("SIGKILL"), 5000);
            await exited;
            clearTimeout(force);
          },
        });
      } catch {
        child.kill("SIGKILL");
        reject(new EmulatorStartError(`the embedded emulator printed an unreadable first line: ${out.slice(0, nl)}`));
      }
    });
  });
}
