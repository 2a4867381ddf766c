/**
 * The path parameters of a job-endpoint route. The router only matches a route when they are
 * present and non-empty; `endpointId` is an endpoint id or a public model slug, passed to the
 * model as given (it resolves both).
 */
import type { OpContext } from "../../op-context.ts";

export function endpointIdOf(ctx: OpContext): string {
  return ctx.params["endpointId"] ?? "";
}

export function jobIdOf(ctx: OpContext): string {
  return ctx.params["jobId"] ?? "";
}
