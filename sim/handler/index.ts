// Users' job handlers run for real: JavaScript/TypeScript in worker threads, Python in python3 processes.
export { loadHandler, MAX_CONCURRENCY } from "./load-handler.ts";
export { HandlerLoadError } from "./handler-load-error.ts";
export { LOG_LEVELS, DEFAULT_MAX_OUTPUT_BYTES } from "./types.ts";
export type { Execution, HandlerJob, HandlerLog, HandlerOutcome, HandlerRuntime, LogLevel, RuntimeOptions } from "./types.ts";
