/**
 * The backend `startEmulator` and `cpsim serve` use when none is given: the platform model of
 * sim/api. Until that is wired here, asking for it fails with a clear error (exit code 2).
 */
import type { BackendFactory } from "./backend.ts";
import { NoBackendError } from "./errors.ts";

export const createDefaultBackend: BackendFactory = () => {
  throw new NoBackendError();
};
