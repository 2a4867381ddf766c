/** Loads a handler file by its extension: `.py` runs in python3 processes, anything else in worker threads. */
import { extname } from "node:path";
import { HandlerLoadError } from "./handler-load-error.ts";
import { loadJsHandler } from "./js-runtime.ts";
import { loadPythonHandler } from "./python-runtime.ts";
import type { HandlerRuntime, RuntimeOptions } from "./types.ts";

const JS_EXTENSIONS = new Set([".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"]);

export async function loadHandler(file: string, options: RuntimeOptions = {}): Promise<HandlerRuntime> {
  const concurrency = options.concurrency ?? 1;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new HandlerLoadError(`concurrency must be an integer from 1 to ${MAX_CONCURRENCY}, got ${concurrency}`, file);
  }
  const ext = extname(file).toLowerCase();
  if (ext === ".py") return loadPythonHandler(file, options);
  if (JS_EXTENSIONS.has(ext)) return loadJsHandler(file, options);
  throw new HandlerLoadError(`${file}: unknown handler type "${ext || "(no extension)"}"; use a .py file or a JavaScript/TypeScript module (.js, .mjs, .ts, .mts)`, file);
}

/** Threads or processes one handler may use at once (a limit on everything). */
export const MAX_CONCURRENCY = 64;
