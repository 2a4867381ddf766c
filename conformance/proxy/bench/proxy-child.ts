/**
 * The proxy side of `npm run bench:proxy`, forked so that it has a process (and core) of its own
 * like a deployed proxy: `startProxy` in front of the URL it is given, judging every exchange.
 * Speaks IPC: → {type: "ready", url}; ← {type: "mem"} → {type: "mem", rssMb, rssBeforeGcMb, heapMb, exchanges, capturePeakMb} (after a GC); ← {type: "cpu"} → {type: "cpu", cpuUs, systemUs, exchanges} (its
 * CPU time so far, user + system, and the system part); ← {type: "stop"} → {type: "stopped", exchanges, findings}.
 */
import { startProxy } from "../proxy.ts";

async function main(): Promise<void> {
  const [target, reportDir] = process.argv.slice(2) as [string, string];
  let findings = 0;
  const proxy = await startProxy({ target, reportDir }, { onFinding: () => void findings++ });
  process.send?.({ type: "ready", url: proxy.baseUrl });
  process.on("message", (m: { type: string }) => {
    if (m.type === "mem") {
      const before = process.memoryUsage().rss;
      (globalThis as { gc?: () => void }).gc?.();
      const after = process.memoryUsage();
      process.send?.({ type: "mem", rssMb: after.rss / 2 ** 20, rssBeforeGcMb: before / 2 ** 20, heapMb: after.heapUsed / 2 ** 20, exchanges: proxy.exchanges(), capturePeakMb: proxy.captureBytes().peak / 2 ** 20 });
      return;
    }
    if (m.type === "cpu") {
      const c = process.cpuUsage();
      process.send?.({ type: "cpu", cpuUs: c.user + c.system, systemUs: c.system, exchanges: proxy.exchanges() });
      return;
    }
    if (m.type !== "stop") return;
    void proxy.stop().then(() => {
      process.send?.({ type: "stopped", exchanges: proxy.exchanges(), findings }, () => process.exit(0));
    });
  });
}

main().catch((err: unknown) => {
  process.send?.({ type: "error", message: (err as Error).stack ?? String(err) });
  process.exit(1);
});
