/**
 * `--respect-rate-limit`: before a scenario, one request reads the target's RateLimit header and
 * the run is paced (open model) to what the tightest window allows for the rest of its period,
 * instead of hammering the quota and measuring 429s.
 */
import { request } from "undici";
import type { PreparedScenario } from "./prepare-requests.ts";
import { parseRateLimitHeader } from "./rate-limit-watch.ts";

/** Requests per second the quota allows now, or undefined when the target sends no RateLimit. */
export async function quotaRate(prepared: PreparedScenario): Promise<number | undefined> {
  const r = prepared.requests.find((x) => x.method === "GET") ?? prepared.requests[0];
  const res = await request(prepared.origin + r.path, { method: r.method as "GET", headers: r.headers, body: r.body, headersTimeout: 10_000, bodyTimeout: 10_000 });
  await res.body.arrayBuffer();
  const header = res.headers.ratelimit;
  const members = parseRateLimitHeader(Array.isArray(header) ? header[0] : header);
  if (members.length === 0) return undefined;
  // Each window allows `remaining` more requests over its `t` seconds; the tightest one paces the run.
  const rates = members.map((m) => m.remaining / Math.max(1, m.resetS ?? 1));
  return Math.max(0.1, Math.min(...rates) * 0.95);
}
