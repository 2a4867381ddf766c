/**
 * Test support: the emulator (optionally with defects) and a proxy in front of it, both on
 * loopback port 0, torn down with the test; and the findings the proxy made, by side.
 */
import type { Test } from "tap";
import { defectsNamed } from "../../../sim/defects/index.ts";
import type { Conventions } from "../../../sim/conventions/index.ts";
import { startEmulator, type EmulatorHandle } from "../../../sim/http/index.ts";
import type { Finding } from "../../passive/passive-judge.ts";
import { startProxy, type ProxyHandle } from "../../proxy/proxy.ts";
import type { ProxyOptions } from "../../proxy/options.ts";

export interface Setup {
  readonly emulator: EmulatorHandle;
  readonly proxy: ProxyHandle;
  readonly findings: Finding[];
  /** The full-access key of account alpha. */
  readonly key: string;
}

export async function emulatorBehindProxy(t: Test, opts: { defects?: string[]; proxy?: Partial<ProxyOptions>; speed?: number; conventions?: Conventions } = {}): Promise<Setup> {
  const emulator = await startEmulator({
    clock: "real",
    speed: opts.speed ?? 1,
    seed: 7,
    logger: false,
    ...(opts.defects?.length ? { defects: defectsNamed(opts.defects) } : {}),
    ...(opts.conventions ? { conventions: opts.conventions } : {}),
  });
  const findings: Finding[] = [];
  const proxy = await startProxy({ target: emulator.baseUrl, reportDir: t.testdir(), ...opts.proxy }, { onFinding: (f) => findings.push(f) });
  t.teardown(async () => {
    await proxy.stop();
    await emulator.close();
  });
  const key = emulator.apiKeys.find((k) => k.access === "full")!.key;
  return { emulator, proxy, findings, key };
}

export const describe = (fs: readonly Finding[]) => fs.slice(0, 6).map((f) => `${f.rule.id} [${f.side}] #${f.exchange.seq}: ${f.expected}`);
