/**
 * `startProxy`: a transparent reverse proxy in front of a target, judging every exchange with the
 * passive checks as it flows. The {base_url} listener forwards to the target; the job endpoints go
 * to the serverless URL, on a second listener or under a path prefix of the first when the target
 * has one of its own. Each finding is reported at once (`onFinding`); `stop()` closes the listeners
 * (in-flight exchanges finish), adds the findings of the whole traffic and builds the report.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent } from "undici";
import type { ConformanceReport, TargetErrorRecord } from "../../reports/conformance-report.ts";
import type { Surface } from "../passive/answer.ts";
import { PassiveJudge, type Finding } from "../passive/passive-judge.ts";
import { ByteBudget } from "./capture.ts";
import { ClientBook } from "./client-book.ts";
import { ProxyListenError } from "./errors.ts";
import { forward, type Flow, type Upstream } from "./forward.ts";
import { JobTimings, type JobTrafficLog } from "./job-timings.ts";
import { proxyCommand, resolveOptions, type ProxyOptions } from "./options.ts";
import { proxyReport } from "./proxy-report.ts";
import { seenFromFlow } from "./record-flow.ts";
import { operationOf } from "../passive/classify.ts";
import type { ShadowDifferenceRecord } from "../../reports/conformance-report.ts";
import { Shadow, type ShadowTarget } from "./shadow.ts";
import { forkEmbedded } from "../embedded.ts";

export type StopReason = "signal" | "max-exchanges" | "max-duration" | "closed";

export interface ProxyHandle {
  readonly options: ProxyOptions;
  /** Where clients send REST and GraphQL requests (the proxy's {base_url}). */
  readonly baseUrl: string;
  /** Where clients send job requests (the proxy's {serverless_url}). */
  readonly serverlessUrl: string;
  readonly judge: PassiveJudge;
  /** Exchanges seen so far. */
  readonly exchanges: () => number;
  /** Exchanges the target answered (a status came back), as against transport errors. */
  readonly answered: () => number;
  /** The bytes of body heads held now, and at most, against --max-capture-mb. */
  readonly captureBytes: () => { readonly now: number; readonly peak: number; readonly bound: number };
  /** The report of the traffic so far, without the findings only the whole traffic shows (a flush while running). */
  snapshot(): ConformanceReport;
  /** The job timings seen so far, for calibration (the proxy's jobs.json). */
  jobTraffic(): JobTrafficLog;
  /** Resolves when --max-exchanges or --max-duration is reached (the caller then stops the proxy). */
  readonly limitReached: Promise<StopReason>;
  /** Stops listening, lets in-flight exchanges end, and answers the report of the whole traffic. */
  stop(): Promise<ProxyResult>;
  /** Drops every open connection now (a second Ctrl-C): a stop under way then ends promptly. */
  forceClose(): void;
  /** Shadow mode's second implementation (--shadow), absent without it. */
  readonly shadow?: Shadow;
}

export interface ProxyResult {
  readonly report: ConformanceReport;
  /** Exchanges the target answered; 0 with exchanges made means the target never answered. */
  readonly answered: number;
  /** Findings only the whole traffic shows, found at the stop. */
  readonly lateFindings: readonly Finding[];
}

export interface ProxyEvents {
  onFinding?(finding: Finding): void;
  onExchange?(seq: number, flow: Flow): void;
  /** Shadow mode: the target and the shadow answered the same request differently on a rule. */
  onShadowDifference?(difference: ShadowDifferenceRecord): void;
  /** Starts the embedded shadow (--shadow emulator); default: the emulator in a child process, on the wall clock. */
  startEmbeddedShadow?(): Promise<ShadowTarget>;
}

/** The emulator in a child process on the wall clock (its clients move no clock), with the catalog `cpsim serve` uses. */
export async function embeddedShadow(): Promise<ShadowTarget> {
  const e = await forkEmbedded(1, "real");
  const keys = Object.values(e.keys ?? {}).filter((k): k is string => typeof k === "string");
  return { rest: e.rest, serverless: e.serverless ?? e.rest, name: `the embedded emulator (${e.rest})`, knownKeys: keys, ...(e.keys?.api ? { key: e.keys.api } : {}), close: () => e.close() };
}

async function shadowTargetOf(options: ProxyOptions, events: ProxyEvents): Promise<ShadowTarget | undefined> {
  if (options.shadow === undefined) return undefined;
  if (options.shadow === "emulator") return (events.startEmbeddedShadow ?? embeddedShadow)();
  return {
    rest: options.shadow,
    serverless: options.shadowServerlessUrl ?? options.shadow,
    name: options.shadow,
    ...(options.shadowKey !== undefined ? { key: options.shadowKey } : {}),
    close: async () => {},
  };
}

const MAX_TARGET_ERRORS = 100;

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => reject(new ProxyListenError(`cannot listen on ${host}:${port}: ${err.code === "EADDRINUSE" ? "the port is in use; give another --port (0 picks a free one)" : err.message}`));
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function upstreamOf(base: string): Upstream {
  const url = new URL(base);
  return { origin: url.origin, basePath: url.pathname.replace(/\/$/, "") };
}

function urlOf(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

export async function startProxy(given: Partial<ProxyOptions> & { target: string }, events: ProxyEvents = {}): Promise<ProxyHandle> {
  const options = resolveOptions(given);
  const startedAt = Date.now();
  const judge = new PassiveJudge({ profile: options.profile, maxFinalPolls: options.maxFinalPolls, soleClient: options.soleClient, command: proxyCommand(options) });
  const agent = new Agent({ connections: options.connections, headersTimeout: options.upstreamTimeoutMs, bodyTimeout: options.upstreamTimeoutMs, keepAliveTimeout: 10_000 });
  const targetErrors: TargetErrorRecord[] = [];
  const budget = new ByteBudget(options.maxCaptureBytes);
  const clients = new ClientBook();
  const jobTimings = new JobTimings(options.serverlessUrl ?? options.target, startedAt);
  let seq = 0;
  let answered = 0;
  const shadowTarget = await shadowTargetOf(options, events);
  const shadow = shadowTarget
    ? new Shadow(
        shadowTarget,
        {
          writes: options.shadowWrites,
          queue: options.shadowQueue,
          concurrency: options.shadowConcurrency,
          timeoutMs: options.shadowTimeoutMs,
          ...(options.shadowEndpoint !== undefined ? { endpoint: options.shadowEndpoint } : {}),
          profile: options.profile,
          captureBytes: options.captureBytes,
        },
        (d) => events.onShadowDifference?.(d),
      )
    : undefined;
  let settleLimit: (r: StopReason) => void = () => {};
  const limitReached = new Promise<StopReason>((resolve) => (settleLimit = resolve));

  const onFlow = (surface: Surface) => (flow: Flow) => {
    const n = ++seq;
    events.onExchange?.(n, flow);
    const seen = seenFromFlow(flow, n, surface);
    if (flow.response) answered++;
    if (flow.error && !flow.response && targetErrors.length < MAX_TARGET_ERRORS) {
      targetErrors.push({ code: "CPSIM_ERR_TARGET", message: flow.error, request: seen.recorded.request });
    }
    clients.exchange(flow.requestHeaders);
    jobTimings.see(seen);
    for (const f of judge.judge(seen)) {
      clients.finding(f);
      events.onFinding?.(f);
    }
    // After the client has its answer: the shadow never delays it.
    shadow?.offer(flow, seen, operationOf(seen), surface);
    if (options.maxExchanges !== undefined && n >= options.maxExchanges) settleLimit("max-exchanges");
  };

  const rest = upstreamOf(options.target);
  const serverless = upstreamOf(options.serverlessUrl ?? options.target);
  // A serverless URL of its own, even the target's: the job endpoints get a listener (or prefix) of their own, as asked.
  const split = options.serverlessUrl !== undefined;
  const prefix = split ? options.serverlessPrefix : undefined;
  const forwardOptions = { captureBytes: options.captureBytes, timeoutMs: options.upstreamTimeoutMs, budget };
  const handler = (surface: Surface, upstream: Upstream) => (req: IncomingMessage, res: ServerResponse) => {
    let path = req.url ?? "/";
    let target = upstream;
    let side = surface;
    if (prefix && (path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`))) {
      path = path.slice(prefix.length) || "/";
      target = serverless;
      side = "serverless";
    }
    forward(req, res, path, target, agent, forwardOptions, onFlow(side));
  };

  const servers: Server[] = [];
  const main = createServer({ keepAliveTimeout: 5_000, requestTimeout: 0, headersTimeout: 60_000 }, handler("rest", rest));
  servers.push(main);
  let port: number;
  try {
    port = await listen(main, options.port, options.host);
  } catch (err) {
    await shadow?.stop(true);
    throw err;
  }
  const baseUrl = urlOf(options.host, port);
  let serverlessUrl = baseUrl;
  if (split && prefix) serverlessUrl = `${baseUrl}${prefix}`;
  else if (split) {
    const second = createServer({ keepAliveTimeout: 5_000, requestTimeout: 0, headersTimeout: 60_000 }, handler("serverless", serverless));
    servers.push(second);
    try {
      serverlessUrl = urlOf(options.host, await listen(second, options.serverlessPort, options.host));
    } catch (err) {
      main.close();
      await shadow?.stop(true);
      throw err;
    }
  }
  const timer = options.maxDurationS !== undefined ? setTimeout(() => settleLimit("max-duration"), options.maxDurationS * 1000) : undefined;
  timer?.unref();

  const snapshot = (): ConformanceReport =>
    proxyReport(judge, {
      target: options.target,
      serverlessUrl: options.serverlessUrl ?? options.target,
      profile: options.profile,
      startedAt,
      endedAt: Date.now(),
      targetErrors,
      clients: clients.records(),
      ...(shadow ? { shadow: shadow.record() } : {}),
    });

  let forced = false;
  let result: Promise<ProxyResult> | undefined;
  const stop = (): Promise<ProxyResult> => {
    if (result) return result;
    if (timer) clearTimeout(timer);
    // Held until the stop ends: whatever it waits on (a socket, undici), the process never runs
    // out of work with the report unwritten.
    const hold = setInterval(() => {}, 1 << 30);
    result = (async () => {
      try {
        await Promise.all(
          servers.map(
            (s) =>
              new Promise<void>((resolve) => {
                s.close(() => resolve());
                s.closeIdleConnections();
              }),
          ),
        );
        // Every client has its answer: what undici still holds (a body the target never took) is dropped.
        if (forced) await agent.destroy();
        else await agent.close();
      } catch {
        // A listener or the agent that fails to close changes nothing of the report.
      }
      try {
        // The shadow last: what is at it gets a short grace, what waits is dropped (counted).
        await shadow?.stop(forced);
      } catch {
        // Nor does a shadow that fails to close.
      } finally {
        clearInterval(hold);
      }
      const lateFindings = judge.finish();
      for (const f of lateFindings) {
        clients.finding(f);
        events.onFinding?.(f);
      }
      settleLimit("closed");
      return { report: snapshot(), lateFindings, answered };
    })();
    return result;
  };

  const forceClose = () => {
    forced = true;
    for (const s of servers) s.closeAllConnections();
    void agent.destroy().catch(() => {});
  };
  return {
    options,
    baseUrl,
    serverlessUrl,
    judge,
    exchanges: () => seq,
    answered: () => answered,
    captureBytes: () => ({ now: budget.used, peak: budget.peak, bound: budget.total }),
    snapshot,
    jobTraffic: () => jobTimings.snapshot(),
    limitReached,
    stop,
    forceClose,
    ...(shadow ? { shadow } : {}),
  };
}
