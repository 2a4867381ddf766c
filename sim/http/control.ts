/**
 * The control API for virtual time, served beside the platform unless `control: false`:
 * `GET /_sim/clock`, `POST /_sim/clock/advance {ms}`, `POST /_sim/reset {seed}`. Bodies are
 * validated as strictly as the platform's own (unknown keys, wrong types and out-of-range values
 * give 400).
 */
import type { Micros } from "../core/index.ts";
import { problem } from "../api/problem.ts";
import type { ApiResponse } from "../api/types.ts";
import { isoFromMicros } from "../domain/iso-time.ts";
import type { BackendRoute } from "./backend.ts";
import type { ClockMode } from "./options.ts";

export const CONTROL_PREFIX = "/_sim/";

export const controlRoutes: readonly BackendRoute[] = [
  { method: "GET", pattern: "/_sim/clock" },
  { method: "POST", pattern: "/_sim/clock/advance" },
  { method: "POST", pattern: "/_sim/reset" },
];

export interface ClockView {
  readonly now_us: Micros;
  readonly now_ms: number;
  readonly iso: string;
  readonly clock: ClockMode;
  readonly speed: number;
  /**
   * How many requests (runsync, status-sync) have ever been parked to wait: it only grows, so a
   * client that reads it before sending one knows when its own is parked and time may be moved.
   */
  readonly waits_parked: number;
}

export function clockView(now: Micros, clock: ClockMode, speed: number, waitsParked: number): ClockView {
  return { now_us: now, now_ms: Math.floor(now / 1000), iso: isoFromMicros(now), clock, speed, waits_parked: waitsParked };
}

/** What the control API drives; the emulator implements it. */
export interface ControlTarget {
  clock(): ClockView;
  advance(ms: number): Promise<ClockView>;
  reset(seed: number | undefined): Promise<ClockView & { seed: number }>;
  readonly maxAdvanceMs: number;
}

const ok = (body: unknown): ApiResponse => ({ status: 200, headers: { "cache-control": "no-store" }, body });

export async function handleControl(target: ControlTarget, method: string, path: string, body: unknown): Promise<ApiResponse> {
  if (method === "GET" || method === "HEAD") return ok(target.clock());
  const fields = objectBody(body);
  if (typeof fields === "string") return problem(400, fields);
  if (path === "/_sim/clock/advance") {
    const unknown = Object.keys(fields).filter((k) => k !== "ms");
    if (unknown.length > 0) return problem(400, `unknown key "${unknown[0]}"; the body is {"ms": N}`);
    const msValue = fields.ms;
    if (typeof msValue !== "number" || !Number.isSafeInteger(msValue) || msValue < 0 || msValue > target.maxAdvanceMs) {
      return problem(400, `"ms" must be an integer from 0 to ${target.maxAdvanceMs} (7 days), got ${JSON.stringify(msValue) ?? "nothing"}`);
    }
    return ok(await target.advance(msValue));
  }
  const unknown = Object.keys(fields).filter((k) => k !== "seed");
  if (unknown.length > 0) return problem(400, `unknown key "${unknown[0]}"; the body is {"seed": N}`);
  const seed = fields.seed;
  if (seed !== undefined && (typeof seed !== "number" || !Number.isSafeInteger(seed) || seed < 0)) {
    return problem(400, `"seed" must be a non-negative integer, got ${JSON.stringify(seed)}`);
  }
  return ok(await target.reset(seed as number | undefined));
}

function objectBody(body: unknown): Record<string, unknown> | string {
  if (body === undefined) return {};
  if (body === null || typeof body !== "object" || Array.isArray(body)) return "the body must be a JSON object";
  return body as Record<string, unknown>;
}
