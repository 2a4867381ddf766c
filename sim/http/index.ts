// The emulator's public surface: start it in-process, or run it as `cpsim serve`.
export { startEmulator } from "./emulator.ts";
export { parseQuery } from "./request-target.ts";
export type { EmulatorHandle, EmulatorStats } from "./emulator.ts";
export { defaultOptions, defaultLimits, resolveOptions, isLoopbackHost } from "./options.ts";
export type { EmulatorOptions, EmulatorLimits, ClockMode } from "./options.ts";
export type { EmulatorBackend, BackendFactory, BackendOptions, BackendRoute, BackendApiKey, WebhookDelivery } from "./backend.ts";
export { createDefaultBackend } from "./default-backend.ts";
export { EmulatorOptionsError, PortInUseError, ListenError, NoBackendError } from "./errors.ts";
export { BodyRejection } from "./json-body.ts";
export { createServeCommand, optionsFromFlags } from "./cli.ts";
export type { ServeDeps } from "./cli.ts";
export { startLocalServer, defaultLocalServerOptions } from "./local-server/local-server.ts";
export type { LocalServerHandle, LocalServerOptions } from "./local-server/local-server.ts";
export type { BackendTransport } from "./backend.ts";
