/**
 * The embedded emulator's own process, forked by `startEmbedded`: the emulator and the suite
 * each get a core, and a run that is CPU-bound on both sides (the embedded target moves no real
 * time) takes about two thirds of the time it takes in one process. Speaks IPC:
 * → {type: "ready", rest, serverless, keys} or {type: "error", message}; ← {type: "stop"}.
 * argv: the run's seed, then the clock ("manual", the default; "real" for the proxy's shadow).
 */
import { startEmbeddedEmulator } from "./embedded-emulator.ts";

export interface EmbeddedChildMessage {
  readonly type: "ready" | "error";
  readonly rest?: string;
  readonly serverless?: string;
  readonly keys?: Record<string, string | undefined>;
  readonly message?: string;
}

async function main(): Promise<void> {
  const seed = Number(process.argv[2] ?? 1);
  const { emulator, keys } = await startEmbeddedEmulator(seed, undefined, process.argv[3] === "real" ? "real" : "manual");
  const send = (m: EmbeddedChildMessage) => process.send?.(m);
  send({ type: "ready", rest: emulator.baseUrl, serverless: emulator.serverlessUrl, keys: { ...keys } });
  const stop = async () => {
    await emulator.close();
    process.exit(0);
  };
  process.on("message", (m: { type?: string }) => void (m?.type === "stop" && stop()));
  // The parent gone (a crash, a kill) leaves no emulator behind.
  process.on("disconnect", () => void stop());
}

main().catch((err: unknown) => {
  process.send?.({ type: "error", message: err instanceof Error ? err.message : String(err) });
  process.exit(1);
});
