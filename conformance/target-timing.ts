/**
 * What the suite measures of the target before any rule, and the time bounds it derives from it
 * (#31, item 6). On a busy machine a 20 MB runsync to the embedded emulator took past the 30 s
 * request timeout and the run exited 2: the bounds were fixed numbers, whatever the target's pace.
 *
 * At the start of a run the suite sends a few small reads (the round trip: the median of
 * ROUND_TRIPS reads of the target's root) and one bounded upload (UPLOAD_BYTES of JSON to
 * runsync without a key, so no job is made: the target reads the body, then refuses the key).
 * From them:
 *
 *   upload rate      = UPLOAD_BYTES / the upload's whole time (its round trip included: a rate
 *                      never above the true one, so the bound errs long, never short)
 *   largest request  = round trip + LARGEST_BODY_BYTES / upload rate
 *   request timeout  = max(--timeout-ms, min(TIMEOUT_CAP_MS, SAFETY × largest request))
 *   property scale   = min(PROPERTY_SCALE_CAP, max(1, request timeout / --timeout-ms, round trip / REFERENCE_ROUND_TRIP_MS))
 *
 * --timeout-ms stays the floor: a fast target keeps it; a slow one gets more, bounded above. The
 * property scale multiplies every property's time bound and the set-ups' waits for a pod, the job,
 * GraphQL and pod lifecycle properties alike, in one place (property-bounds.ts `realtimeBounds`). A measurement that fails (the target unreachable) leaves every bound as
 * given; the run then says why in its own words (assertReachable).
 */
import type { TimingRecord } from "../reports/conformance-report.ts";
import { Client } from "./client.ts";
import { realtimeBounds } from "./property-bounds.ts";

/** Small reads for the round trip (the median is kept). */
export const ROUND_TRIPS = 3;
/** The bounded upload: 1 MB, within every payload limit the spec gives. */
export const UPLOAD_BYTES = 1_000_000;
/** The largest body the suite sends: a runsync over the 20 MB limit by up to 1 MB (checks/jobs/payload-checks.ts). */
export const LARGEST_BODY_BYTES = 22_000_000;
/** Headroom over the largest request's measured time: the machine's load moves during a run. */
export const SAFETY = 4;
/** The request timeout is never raised past this. */
export const TIMEOUT_CAP_MS = 300_000;
/** The property bounds grow at most this many times. */
export const PROPERTY_SCALE_CAP = 4;
/** A round trip at which the property bounds start to grow with it. */
export const REFERENCE_ROUND_TRIP_MS = 100;

/** The measured pace and the run's time bounds: report.json's `timing`, whose type the report owns. */
export type TargetTiming = TimingRecord;
export type TargetMeasures = NonNullable<TimingRecord["measured"]>;

/** The bounds `measured` calls for, `givenTimeoutMs` being the floor. */
export function deriveTiming(measured: TargetMeasures | undefined, givenTimeoutMs: number, notMeasured?: string): TargetTiming {
  if (measured === undefined) {
    return { givenTimeoutMs, timeoutMs: givenTimeoutMs, propertyScale: 1, capped: false, ...(notMeasured ? { notMeasured } : {}) };
  }
  const largestRequestMs = Math.ceil(measured.roundTripMs + (LARGEST_BODY_BYTES * 1000) / measured.uploadBytesPerS);
  const wanted = SAFETY * largestRequestMs;
  const timeoutMs = Math.max(givenTimeoutMs, Math.min(TIMEOUT_CAP_MS, wanted));
  const scaleWanted = Math.max(1, timeoutMs / givenTimeoutMs, measured.roundTripMs / REFERENCE_ROUND_TRIP_MS);
  const propertyScale = Math.min(PROPERTY_SCALE_CAP, scaleWanted);
  return {
    measured,
    givenTimeoutMs,
    timeoutMs,
    propertyScale: Math.round(propertyScale * 100) / 100,
    largestRequestMs,
    capped: (wanted > TIMEOUT_CAP_MS && givenTimeoutMs < TIMEOUT_CAP_MS) || scaleWanted > PROPERTY_SCALE_CAP,
  };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

/** A valid runsync body of exactly `size` bytes (a job of 0 ms, were it ever run). */
const padded = (size: number): string => {
  const head = '{"input":{"op":"sleep","ms":0,"pad":"';
  const tail = '"}}';
  return `${head}${"a".repeat(Math.max(0, size - head.length - tail.length))}${tail}`;
};

export interface MeasureInput {
  readonly rest: string;
  readonly serverless: string;
  readonly endpoint: string;
  /** The floor, and the measurement's own requests' bound. */
  readonly timeoutMs: number;
}

/** Measures the target's round trip and upload rate; throws what the requests threw. */
export async function measureTarget(input: MeasureInput): Promise<TargetMeasures> {
  // Its own client, on the wall clock: the run's client is made with the bounds derived here.
  const client = Client.create({ timeoutMs: input.timeoutMs, keys: {} });
  try {
    const trips: number[] = [];
    // Not retried, and bounded like the reachability check: a target that does not answer is said so by that check, soon.
    const read = { method: "GET", url: `${input.rest}/`, idempotent: false, timeoutMs: Math.min(input.timeoutMs, 10_000) } as const;
    for (let i = 0; i < ROUND_TRIPS; i++) trips.push((await client.request(read)).durationMs);
    const roundTripMs = median(trips);
    const upload = await client.request({
      method: "POST",
      url: `${input.serverless}/v2/${encodeURIComponent(input.endpoint)}/runsync`,
      body: padded(UPLOAD_BYTES),
      headers: { "content-type": "application/json" },
      idempotent: false,
    });
    const uploadMs = Math.max(1, upload.durationMs);
    return { roundTripMs, uploadMs, uploadBytes: UPLOAD_BYTES, uploadBytesPerS: Math.round((UPLOAD_BYTES * 1000) / uploadMs) };
  } finally {
    await client.close();
  }
}

/** Measures and derives; a failed measurement leaves the bounds as given and says why. */
export async function targetTiming(input: MeasureInput): Promise<TargetTiming> {
  try {
    return deriveTiming(await measureTarget(input), input.timeoutMs);
  } catch (err) {
    return deriveTiming(undefined, input.timeoutMs, err instanceof Error ? err.message : String(err));
  }
}

/** The bounds the factor gives, by the properties that read them (property-bounds.ts). */
export function describeBounds(t: Pick<TargetTiming, "propertyScale">): string {
  const b = realtimeBounds({ timing: t });
  const s = (ms: number) => `${Math.round(ms / 100) / 10} s`;
  return `jobs, GraphQL and pod lifecycle properties ${s(b.propertyMs)} each against a real-time target (${s(b.virtualPropertyMs)} on virtual time), ${s(b.runningPropertyMs)} where a pod must first start (its wait for RUNNING or EXITED ${s(b.runningWaitMs)})`;
}

/** One line for the run's header and --explain-time. */
export function describeTiming(t: TargetTiming): string {
  if (t.measured === undefined) return `timing: not measured (${t.notMeasured ?? "no answer"}); request timeout ${t.givenTimeoutMs} ms, property bounds as given: ${describeBounds(t)}`;
  const m = t.measured;
  const rate = `${(m.uploadBytesPerS / 1_000_000).toFixed(2)} MB/s`;
  const why =
    t.timeoutMs > t.givenTimeoutMs
      ? `raised from ${t.givenTimeoutMs} ms: ${SAFETY}× that, at most ${TIMEOUT_CAP_MS} ms`
      : `as given: ${SAFETY}× that is within it`;
  return (
    `timing: round trip ${m.roundTripMs} ms, upload ${rate} (${m.uploadBytes} bytes in ${m.uploadMs} ms); ` +
    `the largest request (${LARGEST_BODY_BYTES} bytes) ~${t.largestRequestMs} ms: request timeout ${t.timeoutMs} ms (${why}), ` +
    `property bounds ×${t.propertyScale}${t.capped ? " (capped)" : ""}: ${describeBounds(t)}`
  );
}
