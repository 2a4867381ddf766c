/**
 * The embedded target: with no --target, `cpsim conform` starts the emulator on loopback with a
 * manual clock (so time moves only when the suite says, and a run replays exactly) and tests
 * that. It runs in a child process of its own (embedded-child.ts), so the emulator and the suite
 * each have a core; the emulator itself starts there (embedded-emulator.ts), so this module, which the
 * suite loads, never imports the emulator's code. The suite's main account gets quotas large enough that a whole run
 * never waits on its own rate limit; the second account keeps the real platform's example quotas,
 * which the rate-limit rules exhaust on purpose.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { loadCatalog, type Catalog } from "../sim/catalog/index.ts";
import { loaderArgs, siblingModule } from "../sim/package-root.ts";
import type { EmbeddedTarget } from "./conform.ts";
import type { EmbeddedChildMessage } from "./embedded-child.ts";
import type { Keys } from "./keys.ts";
import type { ResolvedOptions } from "./options.ts";

/** Quotas of the embedded suite account: far above what one run sends. */
export const EMBEDDED_SUITE_QUOTAS = { minute: 100_000, hour: 1_000_000, day: 10_000_000 } as const;

function keyOf(catalog: Catalog, accountId: string, access: "full" | "read-only"): string | undefined {
  return catalog.accounts.find((a) => a.id === accountId)?.keys.find((k) => k.access === access)?.key;
}

/** The suite's three keys on the embedded catalog: alpha full, alpha read-only, beta full. */
export function embeddedKeys(catalog: Catalog): Keys {
  return {
    api: keyOf(catalog, "acct-alpha", "full"),
    restricted: keyOf(catalog, "acct-alpha", "read-only"),
    other: keyOf(catalog, "acct-beta", "full"),
  };
}

export function embeddedCatalog(base: Catalog = loadCatalog()): Catalog {
  return {
    ...base,
    accounts: base.accounts.map((a) => (a.id === "acct-alpha" ? { ...a, rateLimits: { ...EMBEDDED_SUITE_QUOTAS } } : a)),
  };
}

/** The emulator in a forked child process: the default embedded target. */
export async function startEmbedded(options: ResolvedOptions): Promise<EmbeddedTarget> {
  return forkEmbedded(options.seed, "manual");
}

/** The emulator in a forked child process, with the clock given (the proxy's shadow runs it on the wall clock). */
export async function forkEmbedded(seed: number, clock: "manual" | "real"): Promise<EmbeddedTarget> {
  const file = fileURLToPath(siblingModule(import.meta.url, "./embedded-child"));
  const child = fork(file, [String(seed), clock], { execArgv: loaderArgs(file), stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const ready = await new Promise<EmbeddedChildMessage>((resolve, reject) => {
    // A bound on a hang, not on speed: on a machine busy with other work a start can take a minute.
    const timer = setTimeout(() => reject(new Error("the embedded emulator did not start within 180 s")), 180_000);
    child.once("message", (m: EmbeddedChildMessage) => {
      clearTimeout(timer);
      if (m.type === "ready") resolve(m);
      else reject(new Error(`the embedded emulator could not start: ${m.message}`));
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the embedded emulator exited with ${code} before it was ready`));
    });
  });
  return {
    rest: ready.rest!,
    serverless: ready.serverless!,
    keys: ready.keys as Keys,
    endpoint: "conformance",
    controlApi: clock === "manual",
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.send({ type: "stop" });
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Whether a target serves the emulator's control API (`GET /_sim/clock`). */
export async function probeControlApi(baseUrl: string, timeoutMs = 5000): Promise<boolean> {
  try {
    const res = await fetch(new URL("/_sim/clock", baseUrl), { signal: AbortSignal.timeout(timeoutMs) });
    if (res.status !== 200) return false;
    const body = (await res.json()) as { now_us?: unknown };
    return typeof body.now_us === "number";
  } catch {
    return false;
  }
}
