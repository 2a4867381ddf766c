/**
 * The options of `cpsim proxy`, as the library takes them; the CLI maps its flags onto these and
 * nothing else. Every wait and buffer has a bound.
 */
import { resolve } from "node:path";
import { defaultReportDir } from "../../reports/write-reports.ts";
import { outputDirRefusal } from "../../reports/output-dir.ts";
import type { Profile } from "../passive/error-body.ts";
import { ProxyConfigError } from "./errors.ts";

/** Whose findings fail the gate: the target's (the default), the client's, either side's, or none. */
export type FailOn = "target" | "client" | "any" | "never";
/** The least severity of a finding that fails the gate. */
export type FailSeverity = "error" | "warning";

export const FAIL_ON: readonly FailOn[] = ["target", "client", "any", "never"];

export interface ProxyOptions {
  /** {base_url} of the target: REST v2 and GraphQL (and the job endpoints when no serverlessUrl is given). */
  readonly target: string;
  /** {serverless_url} of the target's job endpoints (default: target). */
  readonly serverlessUrl?: string;
  /** Address the proxy listens on; 127.0.0.1 unless told otherwise. */
  readonly host: string;
  /** Port of the {base_url} listener; 0 picks a free one. */
  readonly port: number;
  /**
   * Where the job endpoints are served when the target has a serverless URL of its own: a second
   * port (this one; 0 picks a free one), unless `serverlessPrefix` puts them under a path of the first.
   */
  readonly serverlessPort: number;
  /** A path prefix of the first port (e.g. "/serverless") that leads to the serverless URL instead. */
  readonly serverlessPrefix?: string;
  readonly reportDir: string;
  readonly profile: Profile;
  readonly failOn: FailOn;
  readonly failSeverity: FailSeverity;
  /** Stop after this many exchanges (default: no bound). */
  readonly maxExchanges?: number;
  /** Stop after this many seconds (default: no bound). */
  readonly maxDurationS?: number;
  /** Body bytes kept per request and per answer for judging; larger bodies are judged on their head and size. */
  readonly captureBytes: number;
  /**
   * Body bytes all exchanges in flight may hold at once (--max-capture-mb): past it, a body is
   * judged on the head it got and its size. What the followers keep of past exchanges is cut to a
   * few KiB each, so the proxy's memory is bounded in bytes whatever the traffic.
   */
  readonly maxCaptureBytes: number;
  /** How long an answer may take to start and to go quiet (long polls, runsync waits up to 300 s are held). */
  readonly upstreamTimeoutMs: number;
  /** Reads of a finished job before a client counts as polling it forever. */
  readonly maxFinalPolls: number;
  /** Every job request to the target passes through the proxy, from before the first one: what others' jobs would explain is judged (docs/proxy.md). */
  readonly soleClient: boolean;
  /** Connections kept to each upstream origin. */
  readonly connections: number;
  /**
   * Shadow mode (--shadow): a second implementation each read and job read is also sent to, its
   * answers compared with the target's on what the spec fixes. "emulator": an embedded emulator
   * the proxy starts (a real clock, the catalog `cpsim serve` uses); otherwise its {base_url}.
   */
  readonly shadow?: string;
  /** {serverless_url} of the shadow's job endpoints (default: the shadow's base URL). */
  readonly shadowServerlessUrl?: string;
  /** Also send writes (pod create/update/delete/actions, job run/runsync/cancel/retry/purge, GraphQL mutations) to the shadow. */
  readonly shadowWrites: boolean;
  /** Exchanges waiting for, or at, the shadow at once; past it an exchange is dropped (counted), never waited for. */
  readonly shadowQueue: number;
  /** Requests at the shadow at once. */
  readonly shadowConcurrency: number;
  /** How long the shadow may take to answer; past it the exchange is dropped (counted). */
  readonly shadowTimeoutMs: number;
  /** The endpoint id job requests use at the shadow (default: the client's). */
  readonly shadowEndpoint?: string;
  /** The key sent to the shadow in place of the client's (default: the client's own; the embedded shadow: its own key for one it does not know). */
  readonly shadowKey?: string;
}

export const defaultOptions: Omit<ProxyOptions, "target" | "reportDir"> & { reportDir?: string } = {
  host: "127.0.0.1",
  port: 0,
  serverlessPort: 0,
  profile: "lenient",
  failOn: "target",
  failSeverity: "error",
  captureBytes: 4 * 1024 * 1024,
  maxCaptureBytes: 64 * 1024 * 1024,
  upstreamTimeoutMs: 600_000,
  maxFinalPolls: 10,
  soleClient: false,
  connections: 128,
  shadowWrites: false,
  shadowQueue: 128,
  shadowConcurrency: 8,
  shadowTimeoutMs: 120_000,
};

function baseUrl(value: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ProxyConfigError(`${flag} must be an http(s) URL such as http://127.0.0.1:8080, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ProxyConfigError(`${flag} must be an http or https URL, got ${JSON.stringify(value)}`);
  if (url.search || url.hash) throw new ProxyConfigError(`${flag} is a base URL without query or fragment, got ${JSON.stringify(value)}`);
  return url.toString().replace(/\/$/, "");
}

export function resolveOptions(given: Partial<ProxyOptions> & { target?: string }, cwd = process.cwd()): ProxyOptions {
  if (!given.target) throw new ProxyConfigError("--target is required: the base URL of the API to put the proxy in front of");
  const o = { ...defaultOptions, ...given } as ProxyOptions;
  const target = baseUrl(o.target, "--target");
  const serverlessUrl = o.serverlessUrl ? baseUrl(o.serverlessUrl, "--serverless-url") : undefined;
  if (o.serverlessPrefix !== undefined && !/^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(o.serverlessPrefix)) {
    throw new ProxyConfigError(`--serverless-prefix is a path such as /serverless, got ${JSON.stringify(o.serverlessPrefix)}`);
  }
  if (o.serverlessPrefix !== undefined && serverlessUrl === undefined) throw new ProxyConfigError("--serverless-prefix needs --serverless-url: it leads there");
  for (const [name, v, min, max] of [
    ["--port", o.port, 0, 65535],
    ["--serverless-port", o.serverlessPort, 0, 65535],
    ["--capture-bytes", o.captureBytes, 1024, 256 * 1024 * 1024],
    ["--max-capture-bytes", o.maxCaptureBytes, 1024 * 1024, 64 * 1024 * 1024 * 1024],
    ["--upstream-timeout-ms", o.upstreamTimeoutMs, 1000, 3_600_000],
    ["--max-final-polls", o.maxFinalPolls, 1, 1_000_000],
    ["--connections", o.connections, 1, 10_000],
    ["--shadow-queue", o.shadowQueue, 1, 100_000],
    ["--shadow-concurrency", o.shadowConcurrency, 1, 1_000],
    ["--shadow-timeout-ms", o.shadowTimeoutMs, 100, 3_600_000],
  ] as const) {
    if (!Number.isInteger(v) || v < min || v > max) throw new ProxyConfigError(`${name} must be a whole number from ${min} to ${max}, got ${v}`);
  }
  if (o.maxExchanges !== undefined && (!Number.isInteger(o.maxExchanges) || o.maxExchanges < 1)) throw new ProxyConfigError(`--max-exchanges must be a whole number above 0, got ${o.maxExchanges}`);
  if (o.maxDurationS !== undefined && (!Number.isFinite(o.maxDurationS) || o.maxDurationS <= 0 || o.maxDurationS > 604_800)) {
    throw new ProxyConfigError(`--max-duration must be seconds above 0 and at most 604800, got ${o.maxDurationS}`);
  }
  if (!["lenient", "strict"].includes(o.profile)) throw new ProxyConfigError(`--profile must be lenient or strict, got ${o.profile}`);
  if (!FAIL_ON.includes(o.failOn)) throw new ProxyConfigError(`--fail-on must be one of ${FAIL_ON.join(", ")}, got ${o.failOn}`);
  if (!["error", "warning"].includes(o.failSeverity)) throw new ProxyConfigError(`--fail-severity must be error or warning, got ${o.failSeverity}`);
  if (given.serverlessPort !== undefined && serverlessUrl === undefined) throw new ProxyConfigError("--serverless-port needs --serverless-url: the second port leads there");
  if (given.serverlessPort !== undefined && o.serverlessPrefix !== undefined) throw new ProxyConfigError("give --serverless-port (a second port) or --serverless-prefix (a path of the first), not both");
  const shadow = o.shadow === undefined || o.shadow === "emulator" ? o.shadow : baseUrl(o.shadow, "--shadow");
  const shadowServerlessUrl = o.shadowServerlessUrl ? baseUrl(o.shadowServerlessUrl, "--shadow-serverless-url") : undefined;
  if (shadow === undefined && (shadowServerlessUrl !== undefined || given.shadowWrites || given.shadowEndpoint !== undefined)) {
    throw new ProxyConfigError("--shadow-serverless-url, --shadow-writes and --shadow-endpoint need --shadow: the second implementation they are about");
  }
  if (shadow === "emulator" && shadowServerlessUrl !== undefined) throw new ProxyConfigError("--shadow-serverless-url is for a shadow given by URL; the embedded emulator serves its job endpoints itself");
  if (o.shadowEndpoint !== undefined && !/^[A-Za-z0-9._~-]+$/.test(o.shadowEndpoint)) throw new ProxyConfigError(`--shadow-endpoint is an endpoint id such as conformance, got ${JSON.stringify(o.shadowEndpoint)}`);
  // The reports are written at the stop: a folder that cannot take them is found now, not then.
  const reportDir = resolve(cwd, given.reportDir ?? defaultReportDir("proxy", cwd));
  const refusal = outputDirRefusal("--report-dir", reportDir);
  if (refusal !== undefined) throw new ProxyConfigError(refusal);
  return {
    ...o,
    target,
    ...(serverlessUrl ? { serverlessUrl } : {}),
    ...(shadow !== undefined ? { shadow } : {}),
    ...(shadowServerlessUrl !== undefined ? { shadowServerlessUrl } : {}),
    reportDir,
  };
}

/** The command line of these options, for reproductions and the report. */
export function proxyCommand(o: ProxyOptions): string {
  return [
    "cpsim proxy",
    `--target ${o.target}`,
    ...(o.serverlessUrl ? [`--serverless-url ${o.serverlessUrl}`] : []),
    ...(o.profile !== "lenient" ? [`--profile ${o.profile}`] : []),
    ...(o.soleClient ? ["--sole-client"] : []),
    ...(o.shadow !== undefined ? [`--shadow ${o.shadow}`] : []),
    ...(o.shadowServerlessUrl !== undefined ? [`--shadow-serverless-url ${o.shadowServerlessUrl}`] : []),
    ...(o.shadowWrites ? ["--shadow-writes"] : []),
  ].join(" ");
}
