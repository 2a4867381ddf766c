/**
 * `--flush-every`: how often the proxy writes its reports while it runs, so a proxy killed
 * without a chance to stop (SIGKILL, the machine gone) leaves the state of its last flush. A whole
 * number counts exchanges ("500"), one with `s` seconds ("10s"); "off" writes at the stop only.
 */
import { UsageError } from "../../sim/cli/args.ts";

export type FlushEvery = { readonly exchanges: number } | { readonly seconds: number } | "off";

export const DEFAULT_FLUSH_EVERY = "10s";

export function parseFlushEvery(value: string): FlushEvery {
  const v = value.trim().toLowerCase();
  if (v === "off") return "off";
  const m = /^(\d+(?:\.\d+)?)(s?)$/.exec(v);
  const n = m ? Number(m[1]) : NaN;
  if (m && m[2] === "s" && n >= 0.1 && n <= 86_400) return { seconds: n };
  if (m && m[2] === "" && Number.isInteger(n) && n >= 1 && n <= 1_000_000_000) return { exchanges: n };
  throw new UsageError(`--flush-every is a number of exchanges (500), of seconds (10s, from 0.1 to 86400) or off, got ${JSON.stringify(value)}`, "proxy");
}

export function describeFlushEvery(f: FlushEvery): string {
  return f === "off" ? "at the stop only" : "exchanges" in f ? `every ${f.exchanges} exchanges` : `every ${f.seconds} s`;
}
