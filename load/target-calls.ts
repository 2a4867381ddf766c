/**
 * The plain HTTP calls made around a run, never during it (discovery, setup, verification,
 * teardown). They go through the conformance suite's Client, one per run's target, so they are
 * paced exactly as `cpsim conform` paces: the target's RateLimit header is read on every answer,
 * a spent window is waited out before the next call, and a 429 is waited out as its Retry-After
 * (or the window's reset) says, each wait bounded. Past a bound the Client throws a TargetError
 * (CPSIM_ERR_TARGET_RATE_LIMITED), which setup turns into an exit 2 naming the quota.
 */
import { Client, TargetError, type ClientResponse } from "../conformance/index.ts";
import type { LoadTarget } from "./target.ts";

export const FINAL_JOB_STATUSES = new Set(["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"]);

/** Calls in flight at once around a run. */
const MAX_IN_FLIGHT = 16;
const clients = new WeakMap<LoadTarget, Client>();

/** The run's client: one pacer for every call around the run, whatever the scenario. */
export function sideClient(target: LoadTarget): Client {
  let c = clients.get(target);
  if (!c) {
    c = Client.create({ timeoutMs: 30_000, keys: { api: target.apiKey, other: target.limitedApiKey }, maxInFlight: MAX_IN_FLIGHT, recordCapacity: 4 });
    clients.set(target, c);
  }
  return c;
}

export async function closeSideClient(target: LoadTarget): Promise<void> {
  const c = clients.get(target);
  clients.delete(target);
  await c?.close();
}

export interface CallResult {
  readonly status: number;
  readonly json: unknown;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * One call with the run's key or the limited key. `raw429`: a 429 comes back as it is (the
 * canary, the quota read), not waited out.
 */
export async function call(target: LoadTarget, method: "GET" | "POST" | "DELETE", url: string, key: string, body?: unknown, o: { raw429?: boolean } = {}): Promise<CallResult> {
  const base = sideClient(target);
  const client = o.raw429 ? base.scoped({ raw429: true }) : base;
  const role = key === target.apiKey ? "api" : key === target.limitedApiKey ? "other" : undefined;
  const auth = role ? { key: role } as const : { literal: key };
  const res: ClientResponse = await client.request({ method, url, auth, ...(body !== undefined ? { json: body } : {}) });
  return { status: res.status, json: res.json, headers: res.headers };
}

/** Whether `err` is the Client giving up on a rate limit (a wait over its bounds). */
export function isRateLimitStop(err: unknown): err is TargetError {
  return err instanceof TargetError && err.code === "CPSIM_ERR_TARGET_RATE_LIMITED";
}

export function jobUrl(target: LoadTarget, op: string, id?: string): string {
  return `${target.serverlessUrl.replace(/\/+$/, "")}/v2/${encodeURIComponent(target.endpoint)}/${op}${id ? `/${encodeURIComponent(id)}` : ""}`;
}

export async function inBatches<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}
