/**
 * Payload limits: run takes up to 10 MB, runsync up to 20 MB. MB is not defined, so bodies are
 * probed outside the band between the two readings: at most 10,000,000 bytes must be accepted,
 * at least 10,485,761 refused (and 20,000,000 / 20,971,521 for runsync). The refusal's status is
 * not shown: 400 or 413 under the lenient profile, 413 (choices.md) under strict. Bodies are one
 * string built at the exact size; the recording keeps them as runs, so the curl replay is small.
 */
import * as fc from "fast-check";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { accepts, acceptedText, acceptsServed } from "../support/statuses.ts";
import { is2xx, waitingRequestTimeoutMs } from "./support/job-session.ts";
import { property } from "./support/property.ts";
import { violated, withSession } from "./support/with-session.ts";

const HEAD = '{"input":{"op":"sleep","ms":0,"pad":"';
const TAIL = '"}}';

/** A valid submission body of exactly `size` bytes whose job sleeps 0 ms (a small output). */
export function paddedBody(size: number): string {
  return `${HEAD}${"a".repeat(Math.max(0, size - HEAD.length - TAIL.length))}${TAIL}`;
}

const BANDS = {
  run: { accept: 10_000_000, refuse: 10_485_761 },
  runsync: { accept: 20_000_000, refuse: 20_971_521 },
} as const;

/** runsync's wait: long enough for a job of 0 ms to finish behind a 20 MB body. */
const RUNSYNC_WAIT_MS = 60_000;

/**
 * The most one run of the payload property may take: its one request's own timeout. A run sends
 * one body of up to 21 MB. On a busy machine, through a target family's wrapper, that body reached
 * the target after the runsync's wait's worth of clock advances had been spent (#35): the runsync
 * then waited on a stopped clock and the property's bound (60 s on virtual time, 45 s in real
 * time) cut the run before it judged anything. The clock now moves once the request is parked and
 * until it is answered (job-session.ts `whileAdvancing`), and the property's bound follows the
 * request's timeout (property.ts `runMs`), so the rule is judged however long the sending takes.
 */
export function payloadRunMs(ctx: Pick<CheckContext, "options" | "controlApi">, op: "run" | "runsync"): number {
  return op === "runsync" ? waitingRequestTimeoutMs(ctx, RUNSYNC_WAIT_MS, ctx.controlApi) : ctx.options.timeoutMs;
}

function payloadCheck(op: "run" | "runsync") {
  const band = BANDS[op];
  return async (ctx: CheckContext): Promise<CheckOutcome | void> => {
    const runMs = payloadRunMs(ctx, op);
    // The boundary is always tried; the random size stays small, since every megabyte costs time.
    const accepted = await property(
      ctx,
      fc.integer({ min: 1_000, max: 2_000_000 }),
      (size) =>
        withSession(ctx, async (session) => {
          const { res } = await session.runRaw(paddedBody(size), op, op === "runsync" ? { wait: RUNSYNC_WAIT_MS } : undefined);
          if (is2xx(res)) return;
          violated(
            session,
            res.exchange,
            `a 2xx answer to a ${op} body of ${size} bytes: the limit is ${op === "run" ? 10 : 20} MB, and ${band.accept.toLocaleString("en")} bytes is within it however MB is read; got ${res.status}`,
          );
        }),
      { numRuns: 1, examples: [band.accept], runMs },
    );
    if (accepted) return accepted;
    return property(
      ctx,
      fc.integer({ min: band.refuse, max: band.refuse + 1_000_000 }),
      (size) =>
        withSession(ctx, async (session) => {
          const { res } = await session.runRaw(paddedBody(size), op, op === "runsync" ? { wait: RUNSYNC_WAIT_MS } : undefined);
          if (await acceptsServed(ctx, res)) return;
          violated(
            session,
            res.exchange,
            `${acceptedText(ctx)} for a ${op} body of ${size} bytes, over the ${op === "run" ? 10 : 20} MB limit however MB is read (${band.refuse.toLocaleString("en")} bytes or more); got ${res.status}`,
          );
        }),
      { numRuns: 0, examples: [band.refuse], runMs },
    );
  };
}

export const checkRunPayloadLimit = payloadCheck("run");
export const checkRunsyncPayloadLimit = payloadCheck("runsync");
