/**
 * Typed errors of the emulator, each with a stable name and `CPSIM_ERR_…` code; `exitCode` is what
 * the CLI dispatcher exits with when one reaches it.
 */

export class EmulatorOptionsError extends Error {
  override readonly name = "EmulatorOptionsError";
  readonly code = "CPSIM_ERR_EMULATOR_OPTIONS";
  readonly exitCode = 2;
}

export class PortInUseError extends Error {
  override readonly name = "PortInUseError";
  readonly code = "CPSIM_ERR_PORT_IN_USE";
  readonly exitCode = 2;
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(`port ${port} on ${host} is already in use; pick another with --port, or --port 0 for a free one`);
  }
}

export class ListenError extends Error {
  override readonly name = "ListenError";
  readonly code = "CPSIM_ERR_LISTEN";
  readonly exitCode = 2;
  constructor(
    readonly host: string,
    readonly port: number,
    readonly reason: unknown,
  ) {
    super(`cannot listen on ${host}:${port}: ${(reason as Error)?.message ?? String(reason)}`);
  }
}

export class NoBackendError extends Error {
  override readonly name = "NoBackendError";
  readonly code = "CPSIM_ERR_NO_BACKEND";
  readonly exitCode = 2;
  constructor() {
    super("no emulator backend is available yet: the platform model (sim/api) is not wired into sim/http/default-backend.ts");
  }
}
