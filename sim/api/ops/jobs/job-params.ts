/**
 * The path parameters of a job-endpoint route. The router only matches a route when they are
 * present and non-empty; `endpointId` is an endpoint id or a public model slug, passed to the
 * model as given (it resolves both), or the Flash sentinel below.
 */
import type { OpContext } from "../../op-context.ts";

/**
 * runpod/apps/targets.py's SentinelTarget: a deployed Flash resource is called at the
 * pseudo-endpoint `flash` with `X-Flash-App`, `X-Flash-Environment` and `X-Flash-Endpoint`
 * headers, and the platform resolves the endpoint of that name deployed (saveEndpoint's
 * flashEnvironmentId) to that environment of the caller's app of that name. Without the three
 * headers, or when nothing matches, `flash` stays an endpoint id nobody has (404, which the client
 * reads as EndpointNotFound).
 */
export const FLASH_SENTINEL_ID = "flash";

export function endpointIdOf(ctx: OpContext): string {
  const id = ctx.params["endpointId"] ?? "";
  return id === FLASH_SENTINEL_ID ? (deployedFlashEndpoint(ctx) ?? id) : id;
}

function deployedFlashEndpoint(ctx: OpContext): string | undefined {
  const h = ctx.request.headers;
  const appName = h["x-flash-app"];
  const envName = h["x-flash-environment"];
  const name = h["x-flash-endpoint"];
  if (!appName || !envName || !name) return undefined;
  const { apps } = ctx.platform.resources;
  const app = apps.appByName(ctx.principal.accountId, appName);
  const env = app === undefined ? undefined : apps.environmentsOf(app.id).find((e) => e.name === envName);
  if (env === undefined) return undefined;
  return apps.endpointsOf(env.id).find((id) => ctx.platform.resources.get("endpoints", id)?.name === name);
}

export function jobIdOf(ctx: OpContext): string {
  return ctx.params["jobId"] ?? "";
}
