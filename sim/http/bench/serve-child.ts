/**
 * The server side of `npm run bench:serve`, forked by the bench so that the load generator never
 * shares its process: either the emulator (`emulator`, with the default backend or the TEST
 * backend) or a bare node:http server answering a fixed JSON body (`bare`). Speaks IPC:
 * → {type: "ready", url, apiKeys}; ← {type: "rss"} → {type: "rss", rss, heapUsed}; ← {type: "stop"}.
 * Run with --expose-gc so that resident memory is measured after a full collection.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { BackendApiKey } from "../backend.ts";
import { startEmulator } from "../emulator.ts";
import { createTestBackend } from "../test-backend.ts";

type Kind = "emulator" | "bare";

export interface ChildMessage {
  readonly type: "ready" | "rss" | "error";
  readonly url?: string;
  readonly apiKeys?: readonly BackendApiKey[];
  readonly rss?: number;
  readonly heapUsed?: number;
  readonly message?: string;
}

const BARE_BODY = JSON.stringify({ id: "bare-00000000-0000-0000-0000-000000000000", status: "IN_QUEUE" });

async function main(): Promise<void> {
  const [kind, backendName, clock] = process.argv.slice(2) as [Kind, "default" | "test", "real" | "manual"];
  let url: string;
  let apiKeys: readonly BackendApiKey[] = [];
  let stop: () => Promise<void>;
  if (kind === "bare") {
    const server = createServer((req, res) => {
      // Read the request body like any server must, then answer the same bytes every time.
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(BARE_BODY) });
        res.end(BARE_BODY);
      });
    });
    server.keepAliveTimeout = 72_000;
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    stop = () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      });
  } else {
    const emulator = await startEmulator({
      host: "127.0.0.1",
      port: 0,
      seed: 1,
      clock,
      createBackend: backendName === "test" ? createTestBackend : undefined,
    });
    url = emulator.baseUrl;
    apiKeys = emulator.apiKeys;
    stop = () => emulator.close();
  }
  process.on("message", async (m: { type: string }) => {
    if (m.type === "rss") {
      const gc = (globalThis as { gc?: () => void }).gc;
      for (let i = 0; i < 4; i++) {
        gc?.();
        await new Promise((r) => setTimeout(r, 50));
      }
      const mem = process.memoryUsage();
      send({ type: "rss", rss: mem.rss, heapUsed: mem.heapUsed });
    } else if (m.type === "stop") {
      await stop();
      process.disconnect?.();
      process.exit(0);
    }
  });
  send({ type: "ready", url, apiKeys });
}

function send(m: ChildMessage): void {
  process.send?.(m);
}

main().catch((err: Error & { code?: string }) => {
  send({ type: "error", message: err.code?.startsWith("CPSIM_ERR_") ? err.message : (err.stack ?? String(err)) });
  process.exit(2);
});
