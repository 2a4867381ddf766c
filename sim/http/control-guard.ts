/**
 * Who may drive the control API (`/_sim/*`: advance the clock, reset the model). Without a guard
 * any web page open on the machine could reset the emulator with a bodiless cross-origin POST,
 * and a DNS-rebinding page could read it. So, on every control request:
 * - `Host` must name this machine (a loopback name or address, or the address bound);
 * - an `Origin`, when sent, must be the emulator's own (browsers send it on cross-origin requests);
 * - with a control token, `X-Cpsim-Control-Token` must carry it (a custom header: a browser sends
 *   none cross-origin without a CORS preflight, which the emulator never grants).
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { problem } from "../api/problem.ts";
import type { ApiResponse } from "../api/types.ts";
import { isLoopbackHost } from "./options.ts";

export const CONTROL_TOKEN_HEADER = "x-cpsim-control-token";

/** The refusal for a control request, or undefined when it may go on. */
export function controlRefusal(headers: IncomingHttpHeaders, boundHost: string, token: string | undefined): ApiResponse | undefined {
  const host = headers.host;
  if (host !== undefined && !hostAllowed(hostnameOf(host), boundHost)) {
    return problem(403, `the control API answers only requests addressed to this machine; Host "${truncate(host)}" is not a loopback name or the bound address`);
  }
  const origin = headers.origin;
  if (origin !== undefined && (host === undefined || !sameOrigin(origin, host))) {
    return problem(403, `the control API refuses cross-origin requests (Origin "${truncate(origin)}"); call it from a script or curl, not a web page`);
  }
  if (token !== undefined) {
    const given = headers[CONTROL_TOKEN_HEADER];
    if (typeof given !== "string" || !equalSecret(given, token)) {
      return problem(401, `the control API needs the token cpsim serve printed, in the ${CONTROL_TOKEN_HEADER} header (--control-token sets it)`);
    }
  }
  return undefined;
}

function hostnameOf(host: string): string {
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  const colon = host.lastIndexOf(":");
  return colon === -1 ? host : host.slice(0, colon);
}

function hostAllowed(hostname: string, boundHost: string): boolean {
  if (isLoopbackHost(hostname)) return true;
  const bare = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (boundHost === "0.0.0.0" || boundHost === "::") return true;
  return bare === boundHost.toLowerCase();
}

function sameOrigin(origin: string, host: string): boolean {
  try {
    const url = new URL(origin);
    return url.host.toLowerCase() === host.toLowerCase() && (url.protocol === "http:" || url.protocol === "https:");
  } catch {
    return false;
  }
}

function equalSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function truncate(s: string): string {
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}
