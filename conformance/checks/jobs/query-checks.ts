/**
 * The `wait` query of runsync (integer milliseconds, 1000 to 300000) and the `ttl` query of
 * status (integer milliseconds). Values the spec's words rule out (out of range, negative, not a
 * number) must be refused under either profile; spellings a lenient reader might take as numbers
 * ("9e4", "1500.5", "+5000") and the bounds only choices.md gives (ttl above 7 days, ttl 0) are
 * refused only under --profile strict.
 */
import * as fc from "fast-check";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { accepts, acceptedText } from "../support/statuses.ts";
import { property, runsFor, Violation } from "./support/property.ts";
import { violated, withSession } from "./support/with-session.ts";

const WORDS = fc.constantFrom("soon", "ninety", "NaN", "true", "1s", "null");
const LOOSE_NUMBERS = fc.constantFrom("9e4", "1500.5", "+5000", "0x2710", "5000.0");

function badWaitArb(ctx: CheckContext): fc.Arbitrary<string> {
  const lenient = [fc.integer({ min: -1_000_000, max: 999 }).map(String), fc.integer({ min: 300_001, max: 1_000_000_000 }).map(String), WORDS];
  return ctx.options.profile === "strict" ? fc.oneof(...lenient, LOOSE_NUMBERS) : fc.oneof(...lenient);
}

function badTtlArb(ctx: CheckContext): fc.Arbitrary<string> {
  const lenient = [fc.integer({ min: -1_000_000_000, max: -1 }).map(String), WORDS];
  if (ctx.options.profile !== "strict") return fc.oneof(...lenient);
  return fc.oneof(...lenient, LOOSE_NUMBERS, fc.constant("0"), fc.integer({ min: 604_800_001, max: 2_000_000_000 }).map(String));
}

export async function checkWaitRange(ctx: CheckContext): Promise<CheckOutcome | void> {
  return property(
    ctx,
    badWaitArb(ctx),
    (wait) =>
      withSession(ctx, async (session) => {
        const { res } = await session.runsync({}, { query: { wait } });
        if (accepts(ctx, res.status)) return;
        violated(session, res.exchange, `${acceptedText(ctx)} for runsync?wait=${wait}: wait is integer milliseconds from 1000 to 300000; got ${res.status}`);
      }),
    { numRuns: runsFor(ctx, 8) },
  );
}

export async function checkTtlQuery(ctx: CheckContext): Promise<CheckOutcome | void> {
  return withSession(ctx, async (session) => {
    const { id, res } = await session.run({});
    if (id === undefined) {
      return ctx.skip(`could not submit a job to read with a ttl (run answered ${res.status})`);
    }
    return property(
      ctx,
      badTtlArb(ctx),
      async (ttl) => {
        const read = await session.status(id, { ttl });
        if (accepts(ctx, read.status)) return;
        throw new Violation(
          session.evidence(`${acceptedText(ctx)} for status?ttl=${ttl}: ttl is a positive whole number of milliseconds; got ${read.status}`, read.exchange, [res.exchange]),
        );
      },
      { numRuns: runsFor(ctx, 8) },
    );
  });
}
