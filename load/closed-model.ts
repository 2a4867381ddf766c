/**
 * The closed model: autocannon, in this process through its API. Each connection sends its next
 * request when the previous answer arrived (with --pipelining N, keeps N in flight), so the rate
 * is whatever the target sustains. Latency is autocannon's per-response time (hrtime, from the
 * write of the request), recorded in our own microsecond HDR histogram.
 */
import autocannon from "autocannon";
import type { CheckedResponse } from "./checks.ts";
import type { PreparedScenario } from "./prepare-requests.ts";
import { lowerHeaders, type RunBounds } from "./run-bounds.ts";
import { errorKind, type ScenarioStats } from "./scenario-stats.ts";

export async function runClosed(prepared: PreparedScenario, stats: ScenarioStats, bounds: RunBounds): Promise<void> {
  const connections = Math.max(1, Math.min(bounds.connections, bounds.maxRequests));
  const wantsResponse = stats.needsResponse || bounds.onResponse !== undefined;
  const statusOnly = !wantsResponse && stats.scenario.checks.length > 0;
  // autocannon calls a request's onResponse and then, synchronously, emits 'response' with the
  // latency: the pair is joined through this slot.
  let last: CheckedResponse | undefined;
  const requests = prepared.requests.map((r) => ({
    method: r.method as autocannon.Request["method"],
    path: r.path,
    headers: r.headers as Record<string, string>,
    body: r.body,
    ...(wantsResponse
      ? {
          onResponse: (status: number, body: string, _context: unknown, headers?: Record<string, string | string[]>) => {
            last = { status, body, headers: lowerHeaders(headers ?? {}), request: r.name };
          },
        }
      : {}),
  }));
  // The row is taken every second whether or not anyone prints it: the report charts the series.
  const ticker = setInterval(() => {
    const row = stats.tick();
    bounds.onSecond?.(row);
  }, 1000);
  try {
    await new Promise<void>((resolve, reject) => {
      const instance = autocannon(
        {
          url: prepared.origin,
          connections,
          pipelining: bounds.pipelining,
          duration: Math.max(1, Math.ceil(bounds.durationS)),
          amount: bounds.maxRequests,
          timeout: bounds.timeoutS,
          requests: requests as autocannon.Request[],
        },
        (err) => (err ? reject(err) : resolve()),
      );
      // autocannon lets `amount` override `duration`; both are limits here, whichever comes first.
      const stopAt = setTimeout(() => instance.stop(), bounds.durationS * 1000);
      instance.once("done", () => clearTimeout(stopAt));
      instance.on("response", (_client: unknown, status: number, bytes: number, ms: number) => {
        // Status-only checks are judged without the body or the headers.
        const r = last ?? (statusOnly ? { status, body: "", headers: {} } : undefined);
        last = undefined;
        stats.response(ms * 1000, status, bytes, r);
        if (r && bounds.onResponse) bounds.onResponse(r);
      });
      instance.on("reqError", (err: Error) => stats.error(errorKind(err)));
    });
  } finally {
    clearInterval(ticker);
  }
}
