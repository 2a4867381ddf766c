/** A session that cleans up after itself, and the Violation a failed expectation throws. */
import type { CheckContext, CheckOutcome } from "../../../check.ts";
import type { Exchange } from "../../../recorder.ts";
import { JobSession } from "./job-session.ts";
import { Violation } from "./property.ts";

export async function withSession<T>(ctx: CheckContext, fn: (session: JobSession) => Promise<T>, endpoint?: string): Promise<T> {
  const session = new JobSession(ctx, endpoint);
  try {
    return await fn(session);
  } finally {
    await session.cleanup();
  }
}

/** Throws the failure `exchange` shows, with the session's earlier exchanges as its sequence. */
export function violated(session: JobSession, exchange: Exchange, expected: string): never {
  throw new Violation(session.evidence(expected, exchange));
}

/**
 * A check that is one scenario rather than a property: `violated` may end it anywhere, and the
 * Violation becomes the rule's failure.
 */
export async function scenario(ctx: CheckContext, fn: (session: JobSession) => Promise<CheckOutcome | void>, endpoint?: string): Promise<CheckOutcome | void> {
  try {
    return await withSession(ctx, fn, endpoint);
  } catch (err) {
    if (err instanceof Violation) return ctx.fail(err.failure);
    throw err;
  }
}
