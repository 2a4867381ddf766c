/** Starts load/test-server.ts in a child process for a test; resolves with its URL and a stop(). */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { loaderArgs, siblingModule } from "../sim/package-root.ts";

/** How long test-server.ts stalls in `stall` mode. */
export const STALL_MS = 500;

export async function startTestServer(mode: "plain" | "stall"): Promise<{ url: string; stop(): Promise<void> }> {
  const file = fileURLToPath(siblingModule(import.meta.url, "./test-server"));
  const child = spawn(process.execPath, [...loaderArgs(file), file, mode], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      if (out.includes("\n")) resolve((JSON.parse(out.slice(0, out.indexOf("\n"))) as { url: string }).url);
    });
    child.once("exit", (code) => reject(new Error(`test server exited with ${code}`)));
  });
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
