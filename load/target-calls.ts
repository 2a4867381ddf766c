/**
 * The plain HTTP calls made around a run, never during it (discovery, setup, verification,
 * teardown). They go through the conformance suite's Client, one per run's target, so they are
 * paced exactly as `cpsim conform` paces: the target's RateLimit header is read on every answer,
 * a spent window is waited out before the next call, and a 429 is waited out as its Retry-After
 * (or the window's reset) says, each wait bounded. Past a bound the Client throws a TargetError
 * (CPSIM_ERR_TARGET_RATE_LIMITED), which setup turns into an exit 2 naming the quota.
 */
import { Client, TargetError, type ClientResponse, type RequestSpec } from "../conformance/index.ts";
import { parseRateLimitHeader } from "./rate-limit-watch.ts";
import type { LoadTarget } from "./target.ts";

export const FINAL_JOB_STATUSES = new Set(["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"]);

/** Calls in flight at once around a run. */
const MAX_IN_FLIGHT = 16;
const clients = new WeakMap<LoadTarget, Client>();
const gates = new WeakMap<LoadTarget, QuotaGate>();
/** The longest a call waits here for a spent window; past it the Client's own bounds decide. */
const MAX_GATE_WAIT_MS = 65_000;

/**
 * Calls made side by side (setup submits 16 at once) hold back together while a window is spent.
 * The Client's pacer keeps a key's windows while callers wait, but it takes every answer's count
 * as it comes: this gate also keeps an answer that arrives late with an older, higher count from
 * raising what is left (seen with --respect-rate-limit against a small quota).
 */
class QuotaGate {
  private readonly windows = new Map<string, { name: string; remaining: number; resetAt: number }[]>();

  async before(key: string): Promise<void> {
    for (;;) {
      const now = Date.now();
      const spent = (this.windows.get(key) ?? []).filter((w) => w.remaining <= 0 && w.resetAt > now);
      if (spent.length === 0) break;
      const ms = Math.max(...spent.map((w) => w.resetAt - now)) + 50;
      if (ms > MAX_GATE_WAIT_MS) break;
      await new Promise((r) => setTimeout(r, ms));
    }
    const now = Date.now();
    for (const w of this.windows.get(key) ?? []) if (w.resetAt > now) w.remaining--;
  }

  observe(key: string, header: string | undefined): void {
    const now = Date.now();
    const known = this.windows.get(key) ?? [];
    const next = parseRateLimitHeader(header).map((m) => {
      const resetAt = now + (m.resetS ?? 0) * 1000;
      const same = known.find((w) => w.name === m.name && w.resetAt > now && Math.abs(w.resetAt - resetAt) < 1500);
      return { name: m.name, remaining: same ? Math.min(same.remaining, m.remaining) : m.remaining, resetAt: same ? Math.max(same.resetAt, resetAt) : resetAt };
    });
    if (next.length > 0) this.windows.set(key, next);
  }
}

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
  let gate = gates.get(target);
  if (!gate) gates.set(target, (gate = new QuotaGate()));
  if (!o.raw429) await gate.before(key);
  const res: ClientResponse = await client.request({ method, url, auth, ...(body !== undefined ? { json: body } : {}) });
  gate.observe(key, res.headers.ratelimit);
  return { status: res.status, json: res.json, headers: res.headers };
}

/** A request built elsewhere (conform's pod requests, authenticated with the run's key), through the same gate. */
export async function gatedRequest(target: LoadTarget, spec: RequestSpec): Promise<ClientResponse> {
  let gate = gates.get(target);
  if (!gate) gates.set(target, (gate = new QuotaGate()));
  await gate.before(target.apiKey);
  const res = await sideClient(target).request(spec);
  gate.observe(target.apiKey, res.headers.ratelimit);
  return res;
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
