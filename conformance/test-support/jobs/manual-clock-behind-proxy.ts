/**
 * Test-only: the emulator on a manual clock, a test's own proxy in front of it, and a conform run
 * of one rule through that proxy with the control API (the suite moves the clock). For tests that
 * make the traffic between suite and target misbehave in one exact way (a late request, a clock
 * moved between two reads).
 */
import { mkdtempSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../../sim/http/index.ts";
import { PlatformBackend } from "../../../sim/http/platform-backend.ts";
import { conform, type ConformResult } from "../../conform.ts";
import { embeddedCatalog, embeddedKeys } from "../../embedded.ts";

/** A proxy server listening on 127.0.0.1, port 0: its URL and a close that drops its connections. */
export async function listening(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Teardown { teardown(fn: () => unknown): void }

/** Starts the manual-clock emulator, puts `proxyOf(its URL)` in front, and runs `rule` through the proxy. */
export async function conformThroughProxy<P extends { url: string; close(): Promise<void> }>(
  t: Teardown,
  proxyOf: (upstream: string) => Promise<P>,
  rule: string,
  options: { runs?: number; timeoutMs?: number } = {},
): Promise<{ proxy: P; report: ConformResult["report"] }> {
  const catalog = embeddedCatalog();
  const emulator = await startEmulator({ host: "127.0.0.1", port: 0, seed: 1, clock: "manual", createBackend: (o) => new PlatformBackend({ ...o, catalog }) });
  t.teardown(() => emulator.close());
  const proxy = await proxyOf(emulator.baseUrl);
  t.teardown(() => proxy.close());
  const { report } = await conform({
    target: proxy.url,
    serverlessUrl: proxy.url,
    apiKey: embeddedKeys(catalog).api,
    seed: 1,
    ...(options.runs !== undefined ? { runs: options.runs } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    only: [rule],
    minCoverage: 0,
    quiet: true,
    reportDir: mkdtempSync(join(tmpdir(), "cpsim-through-proxy-")),
  }, { controlApi: true });
  return { proxy, report };
}
