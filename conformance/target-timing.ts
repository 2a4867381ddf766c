/**
 * What the suite measures of the target before any rule, and the time bounds it derives from it
 * (#31, item 6). On a busy machine a 20 MB runsync to the embedded emulator took past the 30 s
 * request timeout and the run exited 2: the bounds were fixed numbers, whatever the target's pace.
 *
 * Once the keys were read (conform.ts: a refused key stops the run before any upload), the suite
 * sends a few small reads (the round trip: the median of ROUND_TRIPS reads of the target's root)
 * and one bounded upload (UPLOAD_BYTES to runsync with the accepted full-access key, JSON broken
 * only at its end: the target reads it through and refuses it, so no job is made). An answer given
 * before the body was read gives no rate (measureUpload). From them:
 *
 *   upload rate      = UPLOAD_BYTES / the upload's whole time (its round trip included: a rate
 *                      never above the true one, so the bound errs long, never short)
 *   largest request  = round trip + LARGEST_BODY_BYTES / upload rate
 *   request timeout  = max(--timeout-ms, min(TIMEOUT_CAP_MS, SAFETY × largest request))
 *   property scale   = min(PROPERTY_SCALE_CAP, max(1, request timeout / --timeout-ms, round trip / REFERENCE_ROUND_TRIP_MS))
 *
 * --timeout-ms stays the floor: a fast target keeps it; a slow one gets more, bounded above. The
 * property scale multiplies every property's time bound and the set-ups' waits for a pod, the
 * job, GraphQL and pod lifecycle properties alike, in one place (property-bounds.ts
 * `realtimeBounds`). A measurement that fails (the target unreachable) leaves every bound as
 * given; the run then says why in its own words (assertReachable).
 */
import type { TimingRecord } from "../reports/conformance-report.ts";
import { Client } from "./client.ts";
import { timedUpload } from "./timed-upload.ts";
import { realtimeBounds } from "./property-bounds.ts";

/** Small reads for the round trip (the median is kept). */
export const ROUND_TRIPS = 3;
/** The bounded upload: 1 MB, within every payload limit the spec gives. */
export const UPLOAD_BYTES = 1_000_000;
/** The upload's own bound, whatever the floor: a slow upload is what it is there to measure. */
export const UPLOAD_TIMEOUT_MS = 60_000;
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
  const rate = measured.uploadBytesPerS;
  const largestRequestMs = rate === undefined ? undefined : Math.ceil(measured.roundTripMs + (LARGEST_BODY_BYTES * 1000) / rate);
  // No rate (the upload was refused unread): the timeout stays as given, the round trip alone scales the properties.
  const wanted = largestRequestMs === undefined ? givenTimeoutMs : SAFETY * largestRequestMs;
  const timeoutMs = Math.max(givenTimeoutMs, Math.min(TIMEOUT_CAP_MS, wanted));
  const scaleWanted = Math.max(1, timeoutMs / givenTimeoutMs, measured.roundTripMs / REFERENCE_ROUND_TRIP_MS);
  const propertyScale = Math.min(PROPERTY_SCALE_CAP, scaleWanted);
  return {
    measured,
    givenTimeoutMs,
    timeoutMs,
    propertyScale: Math.round(propertyScale * 100) / 100,
    ...(largestRequestMs !== undefined ? { largestRequestMs } : {}),
    capped: (wanted > TIMEOUT_CAP_MS && givenTimeoutMs < TIMEOUT_CAP_MS) || scaleWanted > PROPERTY_SCALE_CAP,
  };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

/**
 * A runsync body of exactly `size` bytes that is not JSON, and shows it only at its end (the
 * closing braces are missing): a target must read it through to refuse it, so no job is made and
 * the answer's time is the upload's.
 */
export const unfinishedJson = (size: number): Buffer => {
  const head = '{"input":{"op":"sleep","ms":0,"pad":"';
  const tail = '"';
  return Buffer.from(`${head}${"a".repeat(Math.max(0, size - head.length - tail.length))}${tail}`);
};

/**
 * Answers a target may give from the request's line and headers alone, before reading a body: the
 * key refused, no such route or method, a size or type refused, a rate limit. Their time is no
 * upload's.
 */
const ANSWERED_UNREAD = new Set([401, 403, 404, 405, 406, 411, 413, 414, 415, 429]);

export interface MeasureInput {
  readonly rest: string;
  readonly serverless: string;
  readonly endpoint: string;
  /** The floor, and the measurement's own requests' bound. */
  readonly timeoutMs: number;
  /** The full-access key, which the target accepted (key-check.ts): the upload carries it, so the target reads the body. */
  readonly apiKey?: string;
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
    return { roundTripMs, ...(await measureUpload(input)) };
  } finally {
    await client.close();
  }
}

type UploadMeasures = Omit<TargetMeasures, "roundTripMs">;

/**
 * The upload: UPLOAD_BYTES to runsync with the full-access key, JSON broken only at its end, so
 * the target must read it all to refuse it (400) and makes no job. Without the key a target may
 * refuse before reading (a 401 from the headers alone looks fast), so there is no upload then; an
 * answer that came before the body was all sent, or one a target gives from the headers alone
 * (ANSWERED_UNREAD), is not trusted either: the timeout then stays as given.
 */
async function measureUpload(input: MeasureInput): Promise<UploadMeasures> {
  if (input.apiKey === undefined) return { uploadNotMeasured: "no full-access key: an upload without one may be refused before its body is read" };
  const url = `${input.serverless}/v2/${encodeURIComponent(input.endpoint)}/runsync`;
  let up;
  try {
    up = await timedUpload(url, { "content-type": "application/json", authorization: `Bearer ${input.apiKey}` }, unfinishedJson(UPLOAD_BYTES), Math.max(input.timeoutMs, UPLOAD_TIMEOUT_MS));
  } catch (err) {
    return { uploadNotMeasured: `POST ${url} got no answer: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!up.bodySent) return { uploadNotMeasured: `POST ${url} answered ${up.status} before its body was sent: the body was not read` };
  if (ANSWERED_UNREAD.has(up.status)) return { uploadNotMeasured: `POST ${url} answered ${up.status}, an answer given without reading the body` };
  return { uploadMs: up.ms, uploadBytes: UPLOAD_BYTES, uploadBytesPerS: Math.round((UPLOAD_BYTES * 1000) / up.ms) };
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
  if (m.uploadBytesPerS === undefined) {
    return (
      `timing: round trip ${m.roundTripMs} ms; upload not measured (${m.uploadNotMeasured ?? "no answer"}): request timeout ${t.timeoutMs} ms (as given), ` +
      `property bounds ×${t.propertyScale}${t.capped ? " (capped)" : ""}: ${describeBounds(t)}`
    );
  }
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
