/**
 * Which statuses a rule accepts under the run's profile: the spec's own where it states one;
 * where it is silent, any 4xx (lenient) or the emulator's documented choice (strict).
 */
import { acceptedStatuses, statusAccepted } from "../../../sim/api/rules/index.ts";
import type { CheckContext } from "../../check.ts";
import type { ClientResponse } from "../../client.ts";
import { assertServedRefusal } from "../../route-evidence.ts";

export function accepts(ctx: CheckContext, status: number): boolean {
  return statusAccepted(ctx.rule, ctx.options.profile, status);
}

/** The accepted statuses in words, for a failure's "expected". */
export function acceptedText(ctx: CheckContext): string {
  const a = acceptedStatuses(ctx.rule, ctx.options.profile);
  return a === "any-4xx" ? "a 4xx status" : a.length === 1 ? `status ${a[0]}` : `one of ${a.join(", ")}`;
}

/**
 * Whether `res` is a refusal the rule accepts, from a route the target serves: a 404 or 405 from
 * a route it does not serve is no refusal, and throws RouteMissing (the rule is skipped, saying so).
 */
export async function acceptsServed(ctx: CheckContext, res: ClientResponse): Promise<boolean> {
  if (!accepts(ctx, res.status)) return false;
  await assertServedRefusal(ctx.client, res, ctx.keys.api ? { key: "api" } : undefined);
  return true;
}
