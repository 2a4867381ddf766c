/**
 * Before `cpsim proxy` listens: does anything accept a connection at the target's address? A
 * proxy in front of nothing would answer every request 502 and judge no exchange, so a target that
 * refuses the connection, a host that does not resolve, or one silent for the timeout is a
 * configuration error (exit 2) saying so, as `cpsim conform` and `cpsim load` do. Only a TCP
 * connection is opened (and closed at once): no request reaches the target.
 */
import { connect } from "node:net";
import { ProxyConfigError } from "./errors.ts";

/** Longest wait for the target to accept a connection. */
export const REACHABLE_TIMEOUT_MS = 5000;

const WHAT: Record<string, string> = {
  ECONNREFUSED: "nothing listens there",
  ENOTFOUND: "the host name does not resolve",
  EAI_AGAIN: "the host name could not be resolved now",
  EHOSTUNREACH: "no route to the host",
  ENETUNREACH: "no route to the network",
};

/** Why nothing accepts a connection at `url`'s host and port (a sentence), or undefined when something does. */
export function unreachableReason(url: string, timeoutMs = REACHABLE_TIMEOUT_MS): Promise<string | undefined> {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = u.port === "" ? (u.protocol === "https:" ? 443 : 80) : Number(u.port);
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (reason: string | undefined) => {
      socket.destroy();
      resolve(reason);
    };
    socket.setTimeout(timeoutMs, () => done(`no connection within ${timeoutMs / 1000} s`));
    socket.once("connect", () => done(undefined));
    socket.once("error", (err: NodeJS.ErrnoException) => done(err.code ? `${err.code}${WHAT[err.code] ? `: ${WHAT[err.code]}` : ""}` : err.message));
  });
}

/** Throws the configuration error when a target of the proxy accepts no connection. */
export async function assertTargetsReachable(targets: readonly { readonly flag: string; readonly url: string }[], timeoutMs = REACHABLE_TIMEOUT_MS): Promise<void> {
  for (const { flag, url } of targets) {
    const reason = await unreachableReason(url, timeoutMs);
    if (reason !== undefined) throw new ProxyConfigError(`${flag} ${url} is unreachable (${reason}); is it running? check ${flag}`);
  }
}
