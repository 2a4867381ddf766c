/**
 * The emulator the embedded target runs, on loopback with a manual clock and the embedded
 * catalog: started by the embedded child process (embedded-child.ts), and by test support,
 * whose targets wrap its backend. One of the two places in conformance/ (with mutation/) that
 * import the emulator's code; the suite itself reaches every target over HTTP only.
 */
import { startEmulator, type EmulatorBackend } from "../sim/http/index.ts";
import { PlatformBackend } from "../sim/http/platform-backend.ts";
import { embeddedCatalog, embeddedKeys } from "./embedded.ts";

/**
 * `wrap` may replace the emulator's backend (the broken targets of the checks' tests do).
 * `clock`: manual for conform (the suite moves time); real for the proxy's shadow, whose clients move nothing.
 * `model`: options of the platform model (a test's rate-limit window mode).
 */
export async function startEmbeddedEmulator(
  seed: number,
  wrap: (backend: EmulatorBackend) => EmulatorBackend = (b) => b,
  clock: "manual" | "real" = "manual",
  model?: ConstructorParameters<typeof PlatformBackend>[0]["model"],
) {
  const catalog = embeddedCatalog();
  const emulator = await startEmulator({
    host: "127.0.0.1",
    port: 0,
    seed,
    clock,
    ...(clock === "real" ? { speed: 1 } : {}),
    control: true,
    createBackend: (o) => wrap(new PlatformBackend({ ...o, catalog, ...(model ? { model } : {}) })),
  });
  return { emulator, keys: embeddedKeys(catalog) };
}
