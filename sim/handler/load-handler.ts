/**
 * Loads a handler by its file's extension: `.py` runs in python3 processes, JavaScript/TypeScript
 * in worker threads. `FILE:NAME` runs the function NAME instead of the default export / `handler`.
 */
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
  const ref = splitHandlerRef(file);
  const ext = extname(ref.file).toLowerCase();
  const opts = ref.exportName === undefined ? options : { ...options, exportName: ref.exportName };
  if (ext === ".py") return loadPythonHandler(ref.file, opts);
  if (JS_EXTENSIONS.has(ext)) return loadJsHandler(ref.file, opts);
  throw new HandlerLoadError(`${file}: unknown handler type "${ext || "(no extension)"}"; use a .py file or a JavaScript/TypeScript module (.ts, .mts, .cts, .js, .mjs, .cjs)`, file);
}

/** Threads or processes one handler may use at once (a limit on everything). */
export const MAX_CONCURRENCY = 64;

/** `path/handler.py:fn` → file and function name; a plain path (Windows drive letters included) has none. */
export function splitHandlerRef(ref: string): { file: string; exportName?: string } {
  const m = /^(.*\.(?:py|[cm]?[jt]s)):([A-Za-z_$][\w$]*)$/.exec(ref);
  return m === null ? { file: ref } : { file: m[1], exportName: m[2] };
}
