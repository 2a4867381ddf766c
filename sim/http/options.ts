/**
 * The options of `startEmulator` and `cpsim serve`, with one `defaultOptions`, and every limit
 * the transport enforces in one place. The CLI maps its flags onto the same object.
 */
import type { Defect } from "../defects/defect.ts";
import type { Conventions } from "../conventions/dimensions.ts";
import type { BackendFactory, EmulatorBackend, MemoryBudget } from "./backend.ts";
import { EmulatorOptionsError } from "./errors.ts";

const KiB = 1024;
const MiB = 1024 * KiB;

export interface EmulatorLimits {
  /** Request line plus headers, in bytes (node's `maxHeaderSize`); more gives 431. */
  readonly maxHeaderBytes: number;
  /** Header fields per request; more gives 431. */
  readonly maxHeaders: number;
  /** Time for a client to send its whole header block; then 408 and the socket closes. */
  readonly headersTimeoutMs: number;
  /** Time for a client to send its whole request, body included; then 408. */
  readonly requestTimeoutMs: number;
  /** A socket with no traffic this long is closed (lifted while a request waits for a job). */
  readonly connectionTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  /** How often node looks for connections past headersTimeoutMs / requestTimeoutMs. */
  readonly connectionsCheckingIntervalMs: number;
  readonly maxParamLength: number;
  /** Longest request target (path and query); more gives 414. */
  readonly maxUrlLength: number;
  /** Body limit of routes that name none. */
  readonly defaultBodyLimit: number;
  readonly controlBodyLimit: number;
  /** JSON bodies nested deeper than this are rejected (400). */
  readonly maxJsonDepth: number;
  /** Items in one JSON array. */
  readonly maxJsonArrayItems: number;
  /** Values (scalars, arrays, objects) in one JSON body. */
  readonly maxJsonValues: number;
  /** Requests waiting for a job at once (runsync, status-sync); more gives 503. */
  readonly maxWaits: number;
  /** How long close() lets in-flight requests finish before it drops their connections. */
  readonly closeGraceMs: number;
  readonly webhookTimeoutMs: number;
  readonly maxWebhooksInFlight: number;
  /** Due deliveries held while others are in flight; beyond it a delivery counts as failed. */
  readonly maxWebhookQueue: number;
  /** Largest step of `POST /_sim/clock/advance`, in milliseconds. */
  readonly maxAdvanceMs: number;
  /** Real clock, nobody waiting: the least wall time between two timer-driven model advances. */
  readonly idleTickMs: number;
}

export const defaultLimits: EmulatorLimits = {
  maxHeaderBytes: 16 * KiB,
  maxHeaders: 100,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  connectionTimeoutMs: 120_000,
  keepAliveTimeoutMs: 72_000,
  connectionsCheckingIntervalMs: 1_000,
  maxParamLength: 200,
  maxUrlLength: 8 * KiB,
  defaultBodyLimit: 1 * MiB,
  controlBodyLimit: 64 * KiB,
  maxJsonDepth: 64,
  maxJsonArrayItems: 100_000,
  maxJsonValues: 1_000_000,
  maxWaits: 10_000,
  closeGraceMs: 5_000,
  webhookTimeoutMs: 5_000,
  maxWebhooksInFlight: 64,
  maxWebhookQueue: 10_000,
  maxAdvanceMs: 7 * 24 * 3600 * 1000,
  idleTickMs: 50,
};

export type ClockMode = "real" | "manual";

export interface EmulatorOptions {
  /** Interface to bind; only this one. */
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly seed: number;
  /** `real`: virtual time follows the wall clock × speed; `manual`: only the control API moves it. */
  readonly clock: ClockMode;
  /** Virtual seconds per wall second in real mode. */
  readonly speed: number;
  /** Serve `/_sim/clock`, `/_sim/clock/advance`, `/_sim/reset`; otherwise those paths are 404. */
  readonly control: boolean;
  readonly fixtures?: string;
  /** A ready backend; wins over createBackend. */
  readonly backend?: EmulatorBackend;
  /** Builds the backend from seed and fixtures; the default is the platform model. */
  readonly createBackend?: BackendFactory;
  readonly logger: boolean;
  /** Called once per request when its response is finished or its connection closed (`cpsim serve --log`). */
  readonly onRequestDone?: (entry: RequestLogEntry) => void;
  readonly limits?: Partial<EmulatorLimits>;
  /**
   * A token the control API requires in the X-Cpsim-Control-Token header; none when absent.
   * (`cpsim serve --clock real` makes one up unless told otherwise.)
   */
  readonly controlToken?: string;
  /** A directory for the state journal (`--state`): the session is replayed from it on start. */
  readonly state?: string;
  /** With `state`: keep the records before a damaged one instead of refusing to start (`--state-keep-prefix`). */
  readonly stateKeepPrefix?: boolean;
  /** With `state`: journal bytes past which it is folded into a snapshot (`--state-compact-mb`; 64 MiB when absent, 0: never). */
  readonly stateCompactBytes?: number;
  /** For tests: a module (URL) whose `createWritev(dir)` replaces the journal's write, on its thread (one that throws ENOSPC stands for a full disk). */
  readonly stateWriteModule?: string;
  /** Per-job output limit and budget of held job data, handed to the backend factory. */
  readonly memory?: MemoryBudget;
  /** Documented defects to switch on (sim/defects); none by default, and then the backend is not wrapped at all. */
  readonly defects?: readonly Defect[];
  /**
   * A point of the open-choice space (sim/conventions/, `--conventions`): the backend, its defects
   * included, behind the layer that answers with those conventions; absent: the emulator's own.
   */
  readonly conventions?: Conventions;
  /** With `conventions` whose volumes are unlisted-any-id: the real volume ids a new id stands for. */
  readonly conventionVolumes?: readonly string[];
}

/** One request as `--log` reports it. */
export interface RequestLogEntry {
  readonly method: string;
  /** The request target as sent (path and query). */
  readonly url: string;
  readonly status: number;
  /** Wall milliseconds from the request's headers to its response's end. */
  readonly ms: number;
  /** False when the connection closed before the response was complete. */
  readonly finished: boolean;
}

export const defaultOptions: EmulatorOptions = {
  host: "127.0.0.1",
  port: 0,
  seed: 1,
  clock: "real",
  speed: 1,
  control: true,
  logger: false,
};

export const MAX_SPEED = 1_000_000;

/** Fills defaults and checks every value; throws EmulatorOptionsError naming the bad one. */
export function resolveOptions(given: Partial<EmulatorOptions> = {}): EmulatorOptions & { limits: EmulatorLimits } {
  const o = { ...defaultOptions, ...stripUndefined(given) };
  const limits = { ...defaultLimits, ...stripUndefined(given.limits ?? {}) };
  if (typeof o.host !== "string" || o.host === "") throw new EmulatorOptionsError("host must be a non-empty string");
  if (o.stateCompactBytes !== undefined && !(Number.isSafeInteger(o.stateCompactBytes) && o.stateCompactBytes >= 0)) {
    throw new EmulatorOptionsError("stateCompactBytes must be a non-negative integer (0: never)");
  }
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) {
    throw new EmulatorOptionsError(`port must be an integer 0..65535, got ${o.port}`);
  }
  if (!Number.isSafeInteger(o.seed) || o.seed < 0) throw new EmulatorOptionsError(`seed must be a non-negative integer, got ${o.seed}`);
  if (o.clock !== "real" && o.clock !== "manual") throw new EmulatorOptionsError(`clock must be "real" or "manual", got ${String(o.clock)}`);
  if (typeof o.speed !== "number" || !Number.isFinite(o.speed) || o.speed <= 0 || o.speed > MAX_SPEED) {
    throw new EmulatorOptionsError(`speed must be a number above 0 and at most ${MAX_SPEED}, got ${o.speed}`);
  }
  if (o.controlToken !== undefined && (typeof o.controlToken !== "string" || !/^[\x21-\x7e]{8,256}$/.test(o.controlToken))) {
    throw new EmulatorOptionsError("controlToken must be 8 to 256 visible ASCII characters");
  }
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 0) throw new EmulatorOptionsError(`limits.${name} must be a non-negative integer, got ${value}`);
  }
  if (limits.headersTimeoutMs > limits.requestTimeoutMs && limits.requestTimeoutMs > 0) {
    throw new EmulatorOptionsError("limits.headersTimeoutMs must not exceed limits.requestTimeoutMs");
  }
  return { ...o, limits };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

/** Whether a host name or address stays on this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h) || h === "::ffff:127.0.0.1";
}
