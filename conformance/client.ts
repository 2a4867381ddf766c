/**
 * The suite's HTTP client for the target (undici). Every request is timed out, recorded without
 * keys, and paced on the target's rate limits; a 429 is waited out per `Retry-After` and sent
 * again, except through a raw client (`raw429: true`), which the rate-limit rules use to see
 * 429s as they are. A timeout or connection failure raises TargetError with the request, which
 * the runner reports as a target error, never as the running rule's verdict; on an idempotent
 * request (GET, HEAD, or one marked `idempotent`) it is first retried once, because a reset
 * connection from a pool is no fact about the target, while a POST sent twice might be.
 * Requests in flight are bounded (`maxInFlight`) over every client scoped from one.
 */
import { waitingOn } from "./heartbeat.ts";
import { Agent, request as undiciRequest, type Dispatcher } from "undici";
import type { RecordedRequest, RecordedResponse } from "../reports/conformance-report.ts";
import { TargetError, type TargetErrorCode } from "./errors.ts";
import { keyRedactions, type KeyRole, type Keys, type Redaction } from "./keys.ts";
import { defaultPacing, RateLimitPacer, type PacingOptions, type Wait } from "./rate-limit-pacer.ts";
import { Recorder, type Exchange } from "./recorder.ts";
import { recordBody } from "./record-body.ts";
import { redactRequest } from "./redact-request.ts";
import { ValueStore } from "./values/value-store.ts";

/**
 * How a request authenticates: with one of the run's keys (recorded as its placeholder), with
 * a value the check made up to be wrong (recorded as it is), or not at all.
 */
export type Auth =
  | { readonly key: KeyRole; readonly via?: "bearer" | "raw" | "query" }
  | { readonly literal: string; readonly via?: "bearer" | "raw" | "query" };

export interface RequestSpec {
  readonly method: string;
  /** Absolute URL; `query` is appended. */
  readonly url: string;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as JSON with `content-type: application/json` unless headers say otherwise. */
  readonly json?: unknown;
  /** Sent as it is. */
  readonly body?: string;
  readonly auth?: Auth;
  /** Overrides the client's timeout for this request (a runsync that waits, say). */
  readonly timeoutMs?: number;
  /**
   * Whether sending it twice is harmless, so a reset or timeout is retried once (default: GET
   * and HEAD only). A POST that reads (a job's status-sync is a GET already) may say so.
   */
  readonly idempotent?: boolean;
}

export interface ClientResponse {
  readonly status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: unknown;
  readonly durationMs: number;
  /** How many 429s were waited out before this answer. */
  readonly retries: number;
  readonly exchange: Exchange & { readonly response: RecordedResponse };
}

export interface ClientOptions {
  readonly timeoutMs: number;
  readonly keys: Keys;
  readonly pacing?: Partial<PacingOptions>;
  /** Exchanges a client keeps (default 200). */
  readonly recordCapacity?: number;
  /** Response body characters kept in a recording (default 16 KiB). */
  readonly recordBodyLimit?: number;
  /** The largest response body read, in bytes (default 64 MiB). */
  readonly maxResponseBytes?: number;
  readonly dispatcher?: Dispatcher;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** The run's start, for the `at` offsets of recordings. */
  readonly startedAt?: number;
  /** The most requests in flight at once over this client and every one scoped from it (default 8). */
  readonly maxInFlight?: number;
}

export interface ClientStats {
  requests: number;
  retried429: number;
  targetErrors: number;
  /** Idempotent requests sent again after a reset or timeout. */
  retriedFaults: number;
}

/** What a client and the clients scoped from it share: one pacer, one connection pool, one count. */
interface Shared {
  readonly options: ClientOptions;
  readonly pacer: RateLimitPacer;
  readonly dispatcher: Dispatcher;
  readonly ownsDispatcher: boolean;
  readonly redactions: Redaction[];
  readonly stats: ClientStats;
  /** The field values the target accepted and refused, learned from every exchange (values/). */
  readonly values: ValueStore;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly startedAt: number;
  readonly slots: Semaphore;
}

/** A counting semaphore: the bound on requests in flight. */
class Semaphore {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  constructor(size: number) {
    this.free = size;
  }
  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const DEFAULT_BODY_LIMIT = 16 * 1024;
const DEFAULT_MAX_RESPONSE = 64 * 1024 * 1024;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function identityOf(auth: Auth | undefined): string | undefined {
  return auth && "key" in auth ? `key:${auth.key}` : undefined;
}

function joinHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

function classify(err: unknown, timedOut: boolean): TargetErrorCode {
  const e = err as { name?: string; code?: string };
  if (timedOut || e?.name === "TimeoutError" || /TIMEOUT/.test(e?.code ?? "")) return "CPSIM_ERR_TARGET_TIMEOUT";
  return "CPSIM_ERR_TARGET_CONNECTION";
}

/** A URL's path and query, for a line that names a request (the host is the run's target). */
function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

export class Client {
  private readonly recorder: Recorder;
  /** Requests this client (not the ones scoped from it) sent: one check's count. */
  private sentCount = 0;
  /** Answers this client got that were not 404 or 405: evidence that a route it asked was served. */
  private servedCount = 0;
  /** Its own count of rate-limit waits, then those of the clients it was scoped from. */
  private readonly pacedCounts: { ms: number }[];

  private constructor(
    private readonly shared: Shared,
    /** Whether 429s are returned as they are, unpaced and not retried. */
    readonly raw429: boolean,
    parentCounts: readonly { ms: number }[] = [],
  ) {
    this.recorder = new Recorder(shared.options.recordCapacity ?? 200);
    this.pacedCounts = [{ ms: 0 }, ...parentCounts];
  }

  static create(options: ClientOptions): Client {
    const maxInFlight = Math.max(1, options.maxInFlight ?? 8);
    const dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: 4_000, connections: Math.max(16, maxInFlight) });
    const now = options.now ?? Date.now;
    return new Client(
      {
        options,
        pacer: new RateLimitPacer({ ...defaultPacing, ...options.pacing }, now),
        dispatcher,
        ownsDispatcher: options.dispatcher === undefined,
        redactions: keyRedactions(options.keys),
        stats: { requests: 0, retried429: 0, targetErrors: 0, retriedFaults: 0 },
        values: new ValueStore(),
        now,
        sleep: options.sleep ?? realSleep,
        startedAt: options.startedAt ?? now(),
        slots: new Semaphore(maxInFlight),
      },
      false,
    );
  }

  /** A client with its own recording (one per check) sharing pacing, connections and counts. */
  scoped(options: { raw429?: boolean } = {}): Client {
    return new Client(this.shared, options.raw429 ?? false, this.pacedCounts);
  }

  /**
   * Milliseconds the requests of this client and of those scoped from it spent held back for the
   * target's rate limits (the pacer's waits and the waits after a 429): time a property's bound
   * does not count (working-time.ts).
   */
  get pacedMs(): number {
    return this.pacedCounts[0]!.ms;
  }

  get stats(): Readonly<ClientStats> {
    return this.shared.stats;
  }

  /** Requests sent through this client itself (a check's own count, whatever runs beside it). */
  get sent(): number {
    return this.sentCount;
  }

  /**
   * Answers through this client itself that were neither 404 nor 405: a check whose every answer
   * was one of those met no route of the target, so it judged nothing (route-evidence.ts).
   */
  get served(): number {
    return this.servedCount;
  }

  /**
   * The run's store of field values the target accepted and refused (values/value-store.ts), fed
   * by every exchange of this client and every one scoped from it.
   */
  get values(): ValueStore {
    return this.shared.values;
  }

  /** Milliseconds spent waiting on rate limits over the run. */
  get rateLimitWaitMs(): number {
    return this.shared.pacer.waitedMs;
  }

  /** The longest single wait on rate limits so far in the run, in ms: how far apart two requests of a check may land. */
  get longestRateLimitWaitMs(): number {
    return this.shared.pacer.longestWaitMs;
  }

  /** This client's exchanges, oldest first (bounded). */
  exchanges(): readonly Exchange[] {
    return this.recorder.all();
  }

  async close(): Promise<void> {
    if (this.shared.ownsDispatcher) await this.shared.dispatcher.close();
  }

  /** Ends every connection at once, requests in flight included (a run cut by --max-duration). */
  async destroy(): Promise<void> {
    if (this.shared.ownsDispatcher) await this.shared.dispatcher.destroy();
  }

  async request(spec: RequestSpec): Promise<ClientResponse> {
    const identity = identityOf(spec.auth);
    const { pacer } = this.shared;
    for (let attempt = 0; ; attempt++) {
      if (identity && !this.raw429) {
        const wait = pacer.waitBeforeSend(identity);
        if (wait) await this.wait(identity, wait, spec);
      }
      if (identity) pacer.noteSent(identity);
      const done = waitingOn(`${spec.method} ${pathOf(spec.url)}`);
      const response = await this.sendRetryingFaults(spec, attempt).finally(() => done());
      done(response.status);
      if (identity) pacer.observe(identity, response.headers["ratelimit"]);
      if (response.status !== 429 || this.raw429 || attempt >= pacer.options.maxRetries) return response;
      this.shared.stats.retried429++;
      const wait = pacer.waitAfter429(identity ?? "anonymous", response.headers["retry-after"], response.headers["ratelimit"]);
      await this.wait(identity ?? "anonymous", wait, spec);
    }
  }

  private async wait(identity: string, wait: Wait, spec: RequestSpec): Promise<void> {
    const refusal = this.shared.pacer.admit(identity, wait);
    if (refusal) {
      this.shared.stats.targetErrors++;
      throw new TargetError("CPSIM_ERR_TARGET_RATE_LIMITED", `rate limited: ${refusal}`, this.prepare(spec).recorded);
    }
    const done = waitingOn(`the rate limit of its key: a pause of ${Math.round(wait.ms / 1000)} s before ${spec.method} ${pathOf(spec.url)}`);
    const from = this.shared.now();
    await this.shared.sleep(wait.ms).finally(() => {
      done();
      const ms = Math.max(0, this.shared.now() - from);
      for (const c of this.pacedCounts) c.ms += ms;
    });
  }

  /** Sends once, and once more after a reset or timeout when the request is idempotent. */
  private async sendRetryingFaults(spec: RequestSpec, attempt: number): Promise<ClientResponse> {
    try {
      return await this.send(spec, attempt);
    } catch (err) {
      const idempotent = spec.idempotent ?? IDEMPOTENT_METHODS.has(spec.method.toUpperCase());
      const fault = err instanceof TargetError && (err.code === "CPSIM_ERR_TARGET_TIMEOUT" || err.code === "CPSIM_ERR_TARGET_CONNECTION");
      if (!idempotent || !fault) throw err;
      this.shared.stats.retriedFaults++;
      // The failed attempt counted as a target error; the retry's outcome is the one that stands.
      this.shared.stats.targetErrors--;
      return await this.send(spec, attempt);
    }
  }

  /** The request as it goes on the wire, and as it is recorded (keys replaced). */
  private prepare(spec: RequestSpec): { url: string; headers: Record<string, string>; body?: string; recorded: RecordedRequest } {
    const url = new URL(spec.url);
    for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined) url.searchParams.append(k, String(v));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(spec.headers ?? {})) headers[k.toLowerCase()] = v;
    let body = spec.body;
    if (spec.json !== undefined) {
      body = JSON.stringify(spec.json);
      headers["content-type"] ??= "application/json";
    }
    const auth = spec.auth;
    if (auth) {
      const value = "key" in auth ? this.shared.options.keys[auth.key] : auth.literal;
      if (value === undefined) throw new TypeError(`no ${"key" in auth ? auth.key : ""} key was given; the check should have declared it in needs`);
      const via = auth.via ?? "bearer";
      if (via === "query") url.searchParams.set("api_key", value);
      else headers.authorization = via === "bearer" ? `Bearer ${value}` : value;
    }
    const recorded = redactRequest(
      {
        method: spec.method,
        url: url.href,
        headers,
        ...(body !== undefined ? { body: recordBody(body) } : {}),
        at: this.shared.now() - this.shared.startedAt,
      },
      this.shared.redactions,
    );
    return { url: url.href, headers, body, recorded };
  }

  private async send(spec: RequestSpec, attempt: number): Promise<ClientResponse> {
    const { url, headers, body, recorded } = this.prepare(spec);
    const timeoutMs = spec.timeoutMs ?? this.shared.options.timeoutMs;
    const limit = this.shared.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE;
    // The timeout starts once a slot is free: waiting behind other lanes is not the target's slowness.
    await this.shared.slots.acquire();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const started = this.shared.now();
    this.shared.stats.requests++;
    this.sentCount++;
    try {
      const res = await undiciRequest(url, {
        method: spec.method as Dispatcher.HttpMethod,
        headers,
        body,
        signal: controller.signal,
        dispatcher: this.shared.dispatcher,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > limit) {
          controller.abort(new Error("response too large"));
          throw new TargetError("CPSIM_ERR_TARGET_RESPONSE_TOO_LARGE", `the answer to ${spec.method} ${recorded.url} exceeded ${limit} bytes`, recorded);
        }
        chunks.push(chunk as Buffer);
      }
      const text = Buffer.concat(chunks).toString("utf8");
      const responseHeaders = joinHeaders(res.headers);
      const durationMs = this.shared.now() - started;
      const bodyLimit = this.shared.options.recordBodyLimit ?? DEFAULT_BODY_LIMIT;
      const response: RecordedResponse = {
        status: res.statusCode,
        headers: responseHeaders,
        body: text.length > bodyLimit ? text.slice(0, bodyLimit) : text,
        size,
        ...(text.length > bodyLimit ? { truncated: true } : {}),
        durationMs,
      };
      const exchange = { request: recorded, response };
      this.recorder.add(exchange);
      this.shared.values.observe({ method: spec.method, url, ...(body !== undefined ? { body } : {}), status: res.statusCode, text }, exchange);
      if (response.status !== 404 && response.status !== 405) this.servedCount++;
      let json: unknown;
      try {
        json = text === "" ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.statusCode, headers: responseHeaders, text, json, durationMs, retries: attempt, exchange };
    } catch (err) {
      this.recorder.add({ request: recorded });
      this.shared.stats.targetErrors++;
      if (err instanceof TargetError) throw err;
      const code = classify(err, timedOut);
      const what =
        code === "CPSIM_ERR_TARGET_TIMEOUT"
          ? `no complete answer within ${timeoutMs} ms`
          : `connection failed: ${(err as { code?: string })?.code ?? ""} ${(err as Error)?.message ?? String(err)}`.replace(/\s+/g, " ");
      throw new TargetError(code, `${spec.method} ${recorded.url}: ${what}`, recorded, { cause: err });
    } finally {
      clearTimeout(timer);
      this.shared.slots.release();
    }
  }
}
