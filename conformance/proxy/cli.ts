/**
 * `cpsim proxy`: a thin parser over ProxyOptions. It announces itself as `serve` does (--json:
 * one line with baseUrl and serverlessUrl; --ready-file), prints one line per finding as it
 * happens, and at SIGINT/SIGTERM (or --max-exchanges / --max-duration) writes the reports and
 * exits by --fail-on.
 */
import { rmSync } from "node:fs";
import { parseArgs, renderHelp, UsageError, type CliIo, type CommandModule, type CommandSpec } from "../../sim/cli/args.ts";
import { processStopSignals } from "../../sim/cli/stop-signals.ts";
import { proxyExitCode } from "./exit-code.ts";
import { findingLines } from "./finding-line.ts";
import { defaultOptions, FAIL_ON, resolveOptions, type FailOn, type FailSeverity, type ProxyOptions } from "./options.ts";
import { DEFAULT_FLUSH_EVERY, describeFlushEvery, parseFlushEvery } from "./flush-every.ts";
import { writeProxyReports } from "./write-proxy-reports.ts";
import { writeJobTraffic } from "./job-timings.ts";
import { processCrashes } from "./crash-stop.ts";
import { clientSummaryLines } from "./client-summary.ts";
import { shadowDifferenceLine, shadowSummaryLines } from "./shadow-summary.ts";
import { assertTargetsReachable } from "./target-reachable.ts";
import { outputFileRefusal } from "../../reports/output-dir.ts";
import { startProxy, type ProxyHandle } from "./proxy.ts";
import type { Profile } from "../passive/error-body.ts";
import { writeReadyFile } from "../../sim/cli/ready-file.ts";

export const spec: CommandSpec = {
  name: "proxy",
  summary: "a transparent proxy that judges the live traffic between any client and any target, rule by rule, on both sides",
  usage:
    "cpsim proxy --target URL [--serverless-url URL] [--host ADDR] [--port N] [--serverless-port N] [--serverless-prefix PATH] [--report-dir DIR] [--junit FILE] " +
    "[--profile lenient|strict] [--fail-on target|client|any|never] [--fail-severity error|warning] [--json] [--ready-file FILE] [--max-exchanges N] [--max-duration S] " +
    "[--capture-kb N] [--max-capture-mb N] [--flush-every N|Ns|off] [--upstream-timeout S] [--max-final-polls N] " +
    "[--shadow URL|emulator] [--shadow-serverless-url URL] [--shadow-writes] [--shadow-endpoint ID] [--shadow-queue N] [--shadow-timeout S] [--quiet]",
  description:
    "Point your client (its base URL, and its serverless URL for the job endpoints) at the proxy instead of the target: every request goes to the target " +
    "unchanged and every answer comes back unchanged (streamed as it comes, long polls held). Each exchange is judged against every rule one exchange can " +
    "judge, and each pod and job is followed across exchanges with the spec's state machines. A finding is the target's (its answer breaks a rule) or the " +
    "client's (its request does). One line per finding as it happens; at the stop (SIGINT, SIGTERM, --max-exchanges, --max-duration, an internal error) " +
    "report.json, junit.xml and report.html as `conform` writes them, and jobs.json, the job timings `cpsim plan calibrate --measured` fits from (and every --flush-every while it runs), then exit 1 when a finding of the side " +
    "--fail-on names was made, 2 when the target never answered, else 0. Client findings are grouped by client (User-Agent) in the report.\n" +
    "Keys pass through untouched and never reach a report. With --serverless-url, the job endpoints are served on a second port " +
    "(--serverless-port), or under --serverless-prefix of the first.\n" +
    "With --shadow, each read (and with --shadow-writes each write) is also sent, after the client has its answer, to a second implementation " +
    "(`emulator`: an embedded emulator the proxy starts), and where the two answers differ on a rule the spec fixes it is reported in a section of " +
    "its own; the client only ever sees the target's answer, and a slow or dead shadow drops exchanges (counted), never delays one. " +
    "CPSIM_SHADOW_API_KEY, when set, is the key sent to a shadow given by URL in place of the client's.",
  flags: [
    { name: "target", type: "string", value: "URL", help: "{base_url} of the target: REST v2 and GraphQL (required)" },
    { name: "serverless-url", type: "string", value: "URL", help: "{serverless_url} of the target's job endpoints (default: --target, on the same port)" },
    { name: "host", type: "string", value: "ADDR", help: "address to listen on", default: defaultOptions.host },
    { name: "port", type: "integer", value: "N", help: "port of the proxy's base URL (0: a free one)", default: defaultOptions.port, min: 0, max: 65535 },
    { name: "serverless-port", type: "integer", value: "N", help: `port of the proxy's serverless URL, with --serverless-url (default: ${defaultOptions.serverlessPort}, a free one)`, min: 0, max: 65535 },
    { name: "serverless-prefix", type: "string", value: "PATH", help: "serve the job endpoints under PATH of the first port instead of a second port (e.g. /serverless)" },
    { name: "report-dir", type: "string", value: "DIR", help: "where report.json, junit.xml and report.html go (default: reports/proxy)" },
    { name: "junit", type: "string", value: "FILE", help: "also write the JUnit XML here (where CI collects test results)" },
    { name: "profile", type: "enum", choices: ["lenient", "strict"], help: "lenient: the spec alone; strict: also docs/choices.md's answers", default: defaultOptions.profile },
    { name: "fail-on", type: "enum", choices: [...FAIL_ON], help: "whose findings fail the gate (exit 1, the JUnit file): the target's, the client's, either side's, none", default: defaultOptions.failOn },
    { name: "fail-severity", type: "enum", choices: ["error", "warning"], help: "the least severity of a finding that fails the gate", default: defaultOptions.failSeverity },
    { name: "json", type: "boolean", help: "print one JSON object {baseUrl, serverlessUrl, target, serverlessTarget} as the first line of stdout; finding lines go to stderr" },
    { name: "ready-file", type: "string", value: "FILE", help: "once listening, write that JSON object and the pid to FILE (complete when it appears; removed at the stop)" },
    { name: "max-exchanges", type: "integer", value: "N", help: "stop after N exchanges", min: 1, max: 1_000_000_000 },
    { name: "max-duration", type: "number", value: "S", help: "stop after S seconds", min: 0.001, max: 604_800 },
    { name: "capture-kb", type: "integer", value: "N", help: "body bytes kept per request and answer for judging, in KiB; larger bodies are judged on their head and size", default: defaultOptions.captureBytes / 1024, min: 1, max: 262_144 },
    { name: "max-capture-mb", type: "integer", value: "N", help: "body bytes all exchanges in flight may hold at once, in MiB: past it a body is judged on its head and size (memory stays bounded in bytes)", default: defaultOptions.maxCaptureBytes / (1024 * 1024), min: 1, max: 65_536 },
    { name: "flush-every", type: "string", value: "N|Ns|off", help: "write the reports while running, every N exchanges or N seconds, so a killed proxy leaves its last state", default: DEFAULT_FLUSH_EVERY },
    { name: "upstream-timeout", type: "number", value: "S", help: "longest wait for the target's answer to start or go on (runsync waits up to 300 s)", default: defaultOptions.upstreamTimeoutMs / 1000, min: 1, max: 3600 },
    { name: "max-final-polls", type: "integer", value: "N", help: "reads of a finished job before the client counts as polling it forever", default: defaultOptions.maxFinalPolls, min: 1, max: 1_000_000 },
    { name: "sole-client", type: "boolean", help: "every job request to the target passes through this proxy, from before the first one (a target only these clients use): also judge what others' jobs would explain (a CANCELLED no cancel asked for, health's inQueue and purge-queue's removed above the jobs that may be queued)" },
    { name: "shadow", type: "string", value: "URL|emulator", help: "also send each read to this second implementation and report where its answers differ from the target's on what the spec fixes (emulator: an embedded emulator the proxy starts)" },
    { name: "shadow-serverless-url", type: "string", value: "URL", help: "{serverless_url} of the shadow's job endpoints (default: the --shadow URL)" },
    { name: "shadow-writes", type: "boolean", help: "also send writes (pod create/update/delete/actions, job run/runsync/cancel/retry/purge-queue, GraphQL mutations) to the shadow" },
    { name: "shadow-endpoint", type: "string", value: "ID", help: "the endpoint id job requests use at the shadow (default: the client's)" },
    { name: "shadow-queue", type: "integer", value: "N", help: "exchanges waiting for or at the shadow at once; past it an exchange is dropped (counted)", default: defaultOptions.shadowQueue, min: 1, max: 100_000 },
    { name: "shadow-timeout", type: "number", value: "S", help: "longest wait for the shadow's answer; past it the exchange is dropped (counted)", default: defaultOptions.shadowTimeoutMs / 1000, min: 0.1, max: 3600 },
    { name: "quiet", type: "boolean", help: "no banner and no summary; finding lines only" },
  ],
  exitCodes: [
    [0, "stopped, and no finding of the side --fail-on names (of --fail-severity or worse) was made"],
    [1, "a finding of the side --fail-on names (of --fail-severity or worse) was made"],
    [2, "usage or configuration error (a --target that accepts no connection, a port in use, a --report-dir that cannot be written); the target never answered (every exchange a transport error); an internal error stopped the proxy (reports written)"],
  ],
  examples: [
    "cpsim proxy --target http://127.0.0.1:8080 --json",
    "cpsim proxy --target https://rest.example.com --serverless-url https://api.example.com --ready-file /tmp/proxy.json &",
    "cpsim proxy --target http://127.0.0.1:8080 --max-duration 600 --fail-on any --fail-severity warning --junit results/proxy.xml",
  ],
};

type Flags = Record<string, string | number | boolean | string[] | undefined>;

export function optionsFromFlags(flags: Flags): Partial<ProxyOptions> & { target: string } {
  const str = (n: string) => flags[n] as string | undefined;
  const num = (n: string) => flags[n] as number | undefined;
  const target = str("target");
  if (target === undefined) throw new UsageError("--target is required: the base URL of the API the proxy stands in front of", "proxy");
  return {
    target,
    ...(str("serverless-url") !== undefined ? { serverlessUrl: str("serverless-url") } : {}),
    host: str("host") ?? defaultOptions.host,
    port: num("port") ?? defaultOptions.port,
    // Passed only when given: without --serverless-url (or with --serverless-prefix) it would be ignored, so it is refused.
    ...(num("serverless-port") !== undefined ? { serverlessPort: num("serverless-port") } : {}),
    ...(str("serverless-prefix") !== undefined ? { serverlessPrefix: str("serverless-prefix") } : {}),
    ...(str("report-dir") !== undefined ? { reportDir: str("report-dir") } : {}),
    profile: (str("profile") ?? defaultOptions.profile) as Profile,
    failOn: (str("fail-on") ?? defaultOptions.failOn) as FailOn,
    failSeverity: (str("fail-severity") ?? defaultOptions.failSeverity) as FailSeverity,
    maxCaptureBytes: (num("max-capture-mb") ?? defaultOptions.maxCaptureBytes / (1024 * 1024)) * 1024 * 1024,
    ...(num("max-exchanges") !== undefined ? { maxExchanges: num("max-exchanges") } : {}),
    ...(num("max-duration") !== undefined ? { maxDurationS: num("max-duration") } : {}),
    captureBytes: (num("capture-kb") ?? defaultOptions.captureBytes / 1024) * 1024,
    upstreamTimeoutMs: Math.round((num("upstream-timeout") ?? defaultOptions.upstreamTimeoutMs / 1000) * 1000),
    maxFinalPolls: num("max-final-polls") ?? defaultOptions.maxFinalPolls,
    ...(flags["sole-client"] === true ? { soleClient: true } : {}),
    ...(str("shadow") !== undefined ? { shadow: str("shadow") } : {}),
    ...(str("shadow-serverless-url") !== undefined ? { shadowServerlessUrl: str("shadow-serverless-url") } : {}),
    ...(flags["shadow-writes"] === true ? { shadowWrites: true } : {}),
    ...(str("shadow-endpoint") !== undefined ? { shadowEndpoint: str("shadow-endpoint") } : {}),
    ...(num("shadow-queue") !== undefined ? { shadowQueue: num("shadow-queue") } : {}),
    ...(num("shadow-timeout") !== undefined ? { shadowTimeoutMs: Math.round(num("shadow-timeout")! * 1000) } : {}),
    ...(process.env.CPSIM_SHADOW_API_KEY ? { shadowKey: process.env.CPSIM_SHADOW_API_KEY } : {}),
  };
}

export interface ProxyDeps {
  /** How a stop signal arrives (default: SIGINT and SIGTERM); returns the function that removes it. */
  readonly onStopSignal?: (stop: () => void) => () => void;
  readonly onListening?: (proxy: ProxyHandle) => void;
  /** How an internal error arrives (default, with the default stop signal: uncaught exceptions and rejections); returns the function that removes it. */
  readonly onCrash?: (stop: (err: unknown) => void) => () => void;
}

export function createProxyCommand(deps: ProxyDeps = {}): CommandModule {
  return {
    spec,
    async run(argv: readonly string[], io: CliIo): Promise<number> {
      const parsed = parseArgs(spec, argv);
      if (parsed.help) {
        io.stdout(renderHelp(spec));
        return 0;
      }
      const flags = parsed.flags;
      const given = optionsFromFlags(flags);
      // Every option is checked, and the targets are asked to accept a connection, before the proxy listens.
      const resolved = resolveOptions(given);
      const junitRefusal = flags.junit === undefined ? undefined : outputFileRefusal("--junit", flags.junit as string);
      if (junitRefusal !== undefined) throw new UsageError(junitRefusal, "proxy");
      await assertTargetsReachable([
        { flag: "--target", url: resolved.target },
        ...(resolved.serverlessUrl !== undefined ? [{ flag: "--serverless-url", url: resolved.serverlessUrl }] : []),
        ...(resolved.shadow !== undefined && resolved.shadow !== "emulator" ? [{ flag: "--shadow", url: resolved.shadow }] : []),
        ...(resolved.shadowServerlessUrl !== undefined ? [{ flag: "--shadow-serverless-url", url: resolved.shadowServerlessUrl }] : []),
      ]);
      const flushEvery = parseFlushEvery((flags["flush-every"] as string | undefined) ?? DEFAULT_FLUSH_EVERY);
      const junit = flags.junit as string | undefined;
      const json = flags.json === true;
      const quiet = flags.quiet === true;
      const say = json ? io.stderr : io.stdout;
      const judged = { target: 0, client: 0 };
      let handle: ProxyHandle | undefined;
      // The reports of the traffic so far, written while the proxy runs; one write at a time.
      let flushing: Promise<void> = Promise.resolve();
      let flushedAt = -1;
      let flushWarned = false;
      const flush = () => {
        const p = handle;
        if (p === undefined || p.exchanges() === flushedAt) return flushing;
        flushing = flushing.then(async () => {
          if (p.exchanges() === flushedAt) return;
          const n = p.exchanges();
          try {
            await writeProxyReports(p.snapshot(), { dir: p.options.reportDir, failOn: p.options.failOn, ...(junit ? { junit } : {}) });
            await writeJobTraffic(p.options.reportDir, p.jobTraffic());
            flushedAt = n;
          } catch (err) {
            if (!flushWarned) io.stderr(`cpsim proxy: cannot write the reports while running: ${(err as Error).message}\n`);
            flushWarned = true;
          }
        });
        return flushing;
      };
      const proxy = await startProxy(given, {
        onFinding: (f) => {
          judged[f.side]++;
          say(findingLines(f));
        },
        onShadowDifference: (d) => say(shadowDifferenceLine(d)),
        ...(flushEvery !== "off" && "exchanges" in flushEvery ? { onExchange: (n: number) => void (n % flushEvery.exchanges === 0 && flush()) } : {}),
      });
      handle = proxy;
      const flushTimer = flushEvery !== "off" && "seconds" in flushEvery ? setInterval(() => void flush(), flushEvery.seconds * 1000) : undefined;
      flushTimer?.unref();
      const readyFile = flags["ready-file"] as string | undefined;
      const ready = { baseUrl: proxy.baseUrl, serverlessUrl: proxy.serverlessUrl, target: proxy.options.target, serverlessTarget: proxy.options.serverlessUrl ?? proxy.options.target };
      let signals = 0;
      let crash: unknown;
      let removeSignals = () => {};
      let removeCrashes = () => {};
      const stopped = new Promise<string>((resolve) => {
        removeSignals = (deps.onStopSignal ?? processStopSignals)(() => {
          signals++;
          if (signals === 1) resolve("signal");
          // A second signal: stop waiting for slow clients and long polls.
          else proxy.forceClose();
        });
        // An error nothing caught (a socket's, say) stops the proxy as a signal does: the reports are written.
        const onCrash = deps.onCrash ?? (deps.onStopSignal === undefined ? processCrashes : undefined);
        if (onCrash) {
          removeCrashes = onCrash((err) => {
            if (crash === undefined) crash = err ?? new Error("an internal error");
            io.stderr(`cpsim proxy: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
            resolve("internal error");
          });
        }
        proxy.limitReached.then((r) => resolve(r));
      });
      if (readyFile !== undefined) {
        try {
          writeReadyFile(readyFile, `${JSON.stringify({ ...ready, pid: process.pid })}\n`);
        } catch (err) {
          removeSignals();
          removeCrashes();
          if (flushTimer) clearInterval(flushTimer);
          await proxy.stop();
          io.stderr(`cpsim proxy: cannot write --ready-file ${readyFile}: ${(err as Error).message}; give a path in a writable directory\n`);
          return 2;
        }
      }
      if (json) io.stdout(`${JSON.stringify(ready)}\n`);
      else if (!quiet) {
        io.stdout(
          [
            `cpsim proxy: listening on ${proxy.baseUrl} (profile ${proxy.options.profile}, fail on ${proxy.options.failOn} findings of severity ${proxy.options.failSeverity}${proxy.options.failSeverity === "warning" ? " or worse" : ""})`,
            `  base URL        ${proxy.baseUrl}  ->  ${proxy.options.target}`,
            `  serverless URL  ${proxy.serverlessUrl}  ->  ${ready.serverlessTarget}   (official SDKs: ${proxy.serverlessUrl}/v2)`,
            ...(proxy.shadow ? [`  shadow          ${proxy.shadow.target.name}${proxy.options.shadowWrites ? " (reads and writes)" : " (reads only; --shadow-writes sends writes too)"}`] : []),
            `  stop with Ctrl-C (SIGINT) or SIGTERM: the reports are written then (and ${describeFlushEvery(flushEvery)} while running)`,
            "",
          ].join("\n"),
        );
      }
      deps.onListening?.(proxy);
      const reason = await stopped;
      if (flushTimer) clearInterval(flushTimer);
      if (!quiet) io.stderr(`cpsim proxy: stopping (${reason}); in-flight exchanges finish (signal again to drop them)\n`);
      if (crash !== undefined) proxy.forceClose();
      const { report, answered } = await proxy.stop();
      removeSignals();
      if (readyFile !== undefined) rmSync(readyFile, { force: true });
      await flushing;
      let written: Awaited<ReturnType<typeof writeProxyReports>> | undefined;
      try {
        written = await writeProxyReports(report, { dir: proxy.options.reportDir, failOn: proxy.options.failOn, ...(junit ? { junit } : {}) });
        await writeJobTraffic(proxy.options.reportDir, proxy.jobTraffic());
      } catch (err) {
        io.stderr(`cpsim proxy: cannot write the reports into ${proxy.options.reportDir}: ${(err as Error).message}\n`);
      }
      removeCrashes();
      const gate = proxyExitCode(report, proxy.options.failOn, proxy.options.failSeverity);
      if (!quiet) {
        const s = report.summary;
        say(
          `cpsim proxy: ${report.requests} exchanges (${answered} answered by the target); rules judged ${report.coverage.rules.checked} of ${report.coverage.rules.total} (pass ${s.passed}, fail ${s.failed}); ` +
            `findings: ${judged.target} of the target, ${judged.client} of the client${written ? `; reports: ${written.json}, ${written.junit}, ${written.html}` : ""}\n`,
        );
        for (const line of clientSummaryLines(report.clients ?? [])) say(`${line}\n`);
        if (report.shadow) for (const line of shadowSummaryLines(report.shadow)) say(`${line}\n`);
      }
      if (report.requests > 0 && answered === 0) {
        const first = report.targetErrors[0]?.message ?? "a transport error";
        io.stderr(`cpsim proxy: the target never answered: ${report.requests} exchange(s), each a transport error (first: ${first}); nothing was judged on the target's side, so the gate cannot pass (exit 2)\n`);
        return 2;
      }
      if (crash !== undefined) return 2;
      if (written === undefined) return 2;
      return gate;
    },
  };
}

const command = createProxyCommand();
export const run = command.run;
