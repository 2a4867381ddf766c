/**
 * `cpsim load` killed outright (SIGKILL: no handler of its own runs) leaves no embedded emulator
 * behind: the emulator child watches its IPC channel and stops when it closes
 * (sim/cli/stop-signals.ts). Before, the child served on as an orphan after a CI timeout's kill.
 */
import t from "tap";
import { spawn } from "node:child_process";
import { connect } from "node:net";
import { readdirSync, readFileSync } from "node:fs";
import { packagePath } from "../sim/package-root.ts";

/** Whether something accepts a connection on the loopback port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** Pids of emulators that `cpsim load --seed SEED` started (for clean-up when the check fails). */
function emulatorPids(seed: string): number[] {
  return readdirSync("/proc").filter((d) => /^\d+$/.test(d)).filter((pid) => {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      return cmd.includes("serve") && cmd.includes("--results-budget-mb") && cmd[cmd.indexOf("--seed") + 1] === seed;
    } catch {
      return false;
    }
  }).map(Number);
}

t.test("cpsim load killed by SIGKILL: its embedded emulator stops too", async (t) => {
  const seed = String(700_000 + (process.pid % 100_000));
  const load = spawn(process.execPath, [packagePath("bin", "cpsim.js"), "load", "--scenario", "status-poll", "--duration", "300", "--seed", seed, "--quiet", "--report-dir", t.testdir()], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const port = await new Promise<number>((resolve, reject) => {
    load.stdout.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      const m = /against http:\/\/127\.0\.0\.1:(\d+) \(embedded emulator, child process\)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    load.once("exit", (code) => reject(new Error(`cpsim load exited (${code}) before its banner: ${out}`)));
  });
  t.ok(await accepts(port), "the embedded emulator listens");
  const exited = new Promise((resolve) => load.once("exit", resolve));
  load.kill("SIGKILL");
  await exited;
  // Wait for the emulator to notice (an event, not a time): tries 50 ms apart, up to 4 minutes
  // on a machine busy enough to need them (a timeout of tap's would not say what went wrong).
  let open = true;
  for (let i = 0; i < 4800 && open; i++) {
    open = await accepts(port);
    if (open) await new Promise((r) => setTimeout(r, 50));
  }
  t.notOk(open, "nothing listens on the emulator's port any more");
  for (const pid of emulatorPids(seed)) process.kill(pid, "SIGKILL");
});
