/**
 * The open model: requests at a fixed arrival rate, whatever the target does (wrk2's and k6's
 * constant-arrival-rate meaning). Request i is due at start + i / rate, and its latency runs from
 * that intended send time, not from when it was actually written: when the target stalls, the
 * requests that should have gone out meanwhile carry the stall in their latency, so a slow server
 * cannot hide behind coordinated omission. Requests the generator could not send within
 * LATE_TOLERANCE_MS of their time are counted as late; those never sent before the end, as unsent.
 * autocannon has no such model (its rate limit pauses connections), so this loop is ours, over
 * undici's Pool.
 */
import { Pool } from "undici";
import type { PreparedScenario } from "./prepare-requests.ts";
import type { RunBounds } from "./run-bounds.ts";
import { errorKind, type ScenarioStats } from "./scenario-stats.ts";

/** A request written more than this after its intended time counts as sent late. */
export const LATE_TOLERANCE_MS = 5;
/** Requests in flight at most; beyond it the schedule waits (and what waits is late). */
export const MAX_IN_FLIGHT = 10_000;

/** Runs the schedule; returns how many requests were written. */
export async function runOpen(prepared: PreparedScenario, stats: ScenarioStats, bounds: RunBounds, rate: number): Promise<number> {
  const pool = new Pool(prepared.origin, {
    connections: bounds.connections,
    pipelining: bounds.pipelining,
    headersTimeout: bounds.timeoutS * 1000,
    bodyTimeout: bounds.timeoutS * 1000,
    keepAliveTimeout: 60_000,
  });
  const wantsResponse = stats.needsResponse || bounds.onResponse !== undefined;
  const intervalMs = 1000 / rate;
  const durationMs = bounds.durationS * 1000;
  const total = Math.min(bounds.maxRequests, Math.floor(durationMs / intervalMs) + 1);
  const requests = prepared.requests;
  let sent = 0;
  let inFlight = 0;
  let idle: (() => void) | undefined;
  const start = performance.now();
  // The row is taken every second whether or not anyone prints it: the report charts the series.
  const ticker = setInterval(() => {
    const row = stats.tick();
    bounds.onSecond?.(row);
  }, 1000);

  const statusOnly = !wantsResponse && stats.scenario.checks.length > 0;
  let finished = false;
  const sendDue = (now: number): void => {
    while (sent < total && inFlight < MAX_IN_FLIGHT) {
      const intended = start + sent * intervalMs;
      if (intended > now) break;
      if (now - intended > LATE_TOLERANCE_MS) stats.late++;
      const i = sent++;
      send(i, intended);
    }
  };
  // undici's dispatch API with a handler object: no promise or stream per request, so the
  // generator's own cost stays small next to the target's.
  const send = (i: number, intended: number): void => {
    const r = requests[i % requests.length];
    inFlight++;
    let status = 0;
    let headers: Record<string, string | string[] | undefined> = {};
    let bytes = 0;
    const chunks: Buffer[] = [];
    const done = (): void => {
      inFlight--;
      if (idle) idle();
      // Answers arrive between timer wakes: send what fell due meanwhile now, not at the next wake.
      if (!finished) sendDue(performance.now());
    };
    pool.dispatch(
      { origin: prepared.origin, path: r.path, method: r.method as "GET", headers: r.headers, body: r.body },
      {
        onConnect() {},
        onHeaders(statusCode: number, raw: Buffer[] | string[] | null) {
          status = statusCode;
          if (wantsResponse && raw) {
            for (let k = 0; k + 1 < raw.length; k += 2) {
              const name = raw[k].toString().toLowerCase();
              const value = raw[k + 1].toString();
              const prev = headers[name];
              headers[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
            }
          }
          return true;
        },
        onData(chunk: Buffer) {
          bytes += chunk.length;
          if (wantsResponse) chunks.push(chunk);
          return true;
        },
        onComplete() {
          const latencyUs = (performance.now() - intended) * 1000;
          const checked = wantsResponse
            ? { status, body: Buffer.concat(chunks).toString("utf8"), headers, request: r.name }
            : statusOnly
              ? { status, body: "", headers: {} }
              : undefined;
          stats.response(latencyUs, status, bytes, checked);
          if (checked && bounds.onResponse) bounds.onResponse(checked);
          done();
        },
        onError(err: Error) {
          stats.error(errorKind(err));
          done();
        },
      } as unknown as Parameters<Pool["dispatch"]>[1],
    );
  };

  await new Promise<void>((resolve) => {
    const pump = (): void => {
      const now = performance.now();
      sendDue(now);
      const elapsed = now - start;
      if (sent >= total || elapsed >= durationMs) {
        finished = true;
        // Due before the end but never written: the generator (or MAX_IN_FLIGHT) held them back.
        const due = Math.min(total, Math.floor(Math.min(elapsed, durationMs) / intervalMs) + 1);
        stats.unsent += Math.max(0, due - sent);
        resolve();
        return;
      }
      const wait = Math.max(0, start + sent * intervalMs - performance.now());
      // Timers fire no sooner than 1 ms: wake a little early and send what is due.
      setTimeout(pump, inFlight >= MAX_IN_FLIGHT ? 1 : Math.max(0, wait - 0.5));
    };
    pump();
  });
  // Let what is in flight finish, bounded by the request timeout.
  const deadline = Date.now() + bounds.timeoutS * 1000 + 1000;
  while (inFlight > 0 && Date.now() < deadline) {
    await new Promise<void>((r) => {
      idle = r;
      setTimeout(r, 50);
    });
  }
  idle = undefined;
  clearInterval(ticker);
  await pool.destroy();
  return sent;
}
