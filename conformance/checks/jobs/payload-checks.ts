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
import { is2xx } from "./support/job-session.ts";
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

function payloadCheck(op: "run" | "runsync") {
  const band = BANDS[op];
  return async (ctx: CheckContext): Promise<CheckOutcome | void> => {
    // The boundary is always tried; the random size stays small, since every megabyte costs time.
    const accepted = await property(
      ctx,
      fc.integer({ min: 1_000, max: 2_000_000 }),
      (size) =>
        withSession(ctx, async (session) => {
          const { res } = await session.runRaw(paddedBody(size), op, op === "runsync" ? { wait: 60_000 } : undefined);
          if (is2xx(res)) return;
          violated(
            session,
            res.exchange,
            `a 2xx answer to a ${op} body of ${size} bytes: the limit is ${op === "run" ? 10 : 20} MB, and ${band.accept.toLocaleString("en")} bytes is within it however MB is read; got ${res.status}`,
          );
        }),
      { numRuns: 1, examples: [band.accept] },
    );
    if (accepted) return accepted;
    return property(
      ctx,
      fc.integer({ min: band.refuse, max: band.refuse + 1_000_000 }),
      (size) =>
        withSession(ctx, async (session) => {
          const { res } = await session.runRaw(paddedBody(size), op, op === "runsync" ? { wait: 60_000 } : undefined);
          if (await acceptsServed(ctx, res)) return;
          violated(
            session,
            res.exchange,
            `${acceptedText(ctx)} for a ${op} body of ${size} bytes, over the ${op === "run" ? 10 : 20} MB limit however MB is read (${band.refuse.toLocaleString("en")} bytes or more); got ${res.status}`,
          );
        }),
      { numRuns: 0, examples: [band.refuse] },
    );
  };
}

export const checkRunPayloadLimit = payloadCheck("run");
export const checkRunsyncPayloadLimit = payloadCheck("runsync");
