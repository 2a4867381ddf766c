/**
 * GraphQL's machine identifiers, derived by hashing (a read must not draw): machineId names the
 * host; podHostId names this pod on that host, in the real platform's `<podId>-<hex>` form.
 */
import { alnumFrom, hexFrom, hashString, intIn } from "./hash.ts";

export function machineIdOf(hostId: string): string {
  return alnumFrom(`machine:${hostId}`, 12);
}

export function podHostIdOf(podId: string, hostId: string): string {
  return `${podId}-${hexFrom(`host:${hostId}`, 8)}`;
}

/** Public-looking first octets (no private, loopback, link-local or CGNAT ranges). */
const FIRST_OCTETS = [38, 45, 64, 69, 74, 104, 149, 154, 185, 194, 203, 213];

/** The host's public IPv4 address, for TCP/UDP port mappings. */
export function hostPublicIp(hostId: string): string {
  const h = (i: number) => hashString(`ip:${hostId}`, i);
  return `${FIRST_OCTETS[intIn(h(0), 0, FIRST_OCTETS.length - 1)]}.${intIn(h(1), 0, 255)}.${intIn(h(2), 0, 255)}.${intIn(h(3), 1, 254)}`;
}

/** The pod's address on the platform's private overlay (100.65.0.0/16), for proxied HTTP ports. */
export function podPrivateIp(seed: number): string {
  return `100.65.${(seed >>> 8) & 255}.${1 + ((seed & 255) % 254)}`;
}
