/**
 * The backend `startEmulator` and `cpsim serve` use when none is given: the seeded platform
 * model answered through sim/api.
 */
import type { BackendFactory } from "./backend.ts";
import { PlatformBackend } from "./platform-backend.ts";

export const createDefaultBackend: BackendFactory = (options) => new PlatformBackend(options);
