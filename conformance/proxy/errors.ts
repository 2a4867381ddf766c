/** The proxy's typed errors: a configuration it cannot run with (exit 2). */
export class ProxyConfigError extends Error {
  override readonly name = "ProxyConfigError";
  readonly code = "CPSIM_ERR_PROXY_CONFIG";
  readonly exitCode = 2;
}

/** The listener could not be opened (a port in use, an address not on this machine): exit 2. */
export class ProxyListenError extends Error {
  override readonly name = "ProxyListenError";
  readonly code = "CPSIM_ERR_PROXY_LISTEN";
  readonly exitCode = 2;
}
