// sim/core's public surface: virtual time, typed errors, seeded streams, the event log, the engine.
export { US_PER_MS, US_PER_S, checkTime, hours, minutes, ms, seconds } from "./time.ts";
export type { Micros } from "./time.ts";
export {
  InvalidParameterError,
  SchedulingError,
  SimError,
  StepCapExceededError,
  TimeOverflowError,
} from "./errors.ts";
export type { SchedulingReason } from "./errors.ts";
export { Rng } from "./rng.ts";
export { EventLog, firstDivergence } from "./event-log.ts";
export type { EventLogOptions } from "./event-log.ts";
export { Engine } from "./engine.ts";
export type { EngineOptions, EventHandle, EventHandler, EventKind } from "./engine.ts";
