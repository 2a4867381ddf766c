/**
 * The target side of `npm run bench:proxy`: the emulator (manual clock) on a copy of the bundled
 * catalog with one more account, `acct-bench`, whose full-access key has quotas no bench run
 * spends (1e9 a window). Its answers carry RateLimit headers as every spec key's do, so a correct
 * exchange through the proxy is no finding: the bench measures judging, not writing findings.
 * Speaks IPC as sim/http/bench/serve-child.ts: → {type: "ready", url, apiKeys}; ← {type: "stop"}.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../../../sim/http/emulator.ts";

const BENCH_KEY = "cpsim_bench_full_0d1e2f3a4b5c6d7e";
const QUOTA = 1_000_000_000;

function benchCatalog(): string {
  const dir = mkdtempSync(join(tmpdir(), "cpsim-bench-proxy-catalog-"));
  cpSync(fileURLToPath(new URL("../../../fixtures/catalog/", import.meta.url)), dir, { recursive: true });
  const file = join(dir, "accounts.json");
  const accounts = JSON.parse(readFileSync(file, "utf8")) as { accounts: unknown[] };
  accounts.accounts.push({
    id: "acct-bench",
    name: "Proxy bench",
    keys: [{ key: BENCH_KEY, access: "full", name: "bench full access" }],
    rateLimits: { minute: QUOTA, hour: QUOTA, day: QUOTA },
  });
  writeFileSync(file, JSON.stringify(accounts));
  return dir;
}

async function main(): Promise<void> {
  const fixtures = benchCatalog();
  const emulator = await startEmulator({ host: "127.0.0.1", port: 0, seed: 1, clock: "manual", fixtures });
  process.on("message", async (m: { type: string }) => {
    if (m.type !== "stop") return;
    await emulator.close();
    rmSync(fixtures, { recursive: true, force: true });
    process.send?.({ type: "stopped" }, () => process.exit(0));
  });
  process.send?.({ type: "ready", url: emulator.baseUrl, apiKeys: emulator.apiKeys });
}

main().catch((err: unknown) => {
  process.send?.({ type: "error", message: (err as Error).stack ?? String(err) });
  process.exit(2);
});
