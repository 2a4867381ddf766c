/**
 * Reading a `stream` answer. The spec says "Array of stream chunks"; choices.md gives the shape
 * the real platform uses, `{status, stream: [chunk, ...]}`, which only the strict profile
 * requires. Under the lenient profile either a top-level array or that `stream` array is read.
 */
import type { CheckContext } from "../../../check.ts";
import { isObject } from "./job-body.ts";

export interface StreamRead {
  readonly chunks: readonly unknown[];
  /** The job status the answer carried, when its shape has one. */
  readonly status?: string;
}

/** The chunks of a stream answer, or undefined when it has neither accepted shape. */
export function readStream(ctx: CheckContext, json: unknown): StreamRead | undefined {
  if (isObject(json) && Array.isArray(json["stream"])) {
    return { chunks: json["stream"] as unknown[], ...(typeof json["status"] === "string" ? { status: json["status"] } : {}) };
  }
  if (Array.isArray(json) && ctx.options.profile !== "strict") return { chunks: json };
  return undefined;
}

export function streamShapeText(ctx: CheckContext): string {
  return ctx.options.profile === "strict"
    ? '`{"status": <job status>, "stream": [chunk, ...]}` (docs/choices.md)'
    : 'an array of stream chunks (a top-level array, or the `stream` array of `{"status", "stream"}`)';
}

/** The size of a chunk's output in bytes: UTF-8 of a string, else of its JSON. */
export function outputBytes(output: unknown): number {
  return Buffer.byteLength(typeof output === "string" ? output : (JSON.stringify(output) ?? ""), "utf8");
}

/** The stream chunk limit: 1 MB; the lenient profile reads MB as MiB, the more generous. */
export function chunkLimit(ctx: CheckContext): number {
  return ctx.options.profile === "strict" ? 1_000_000 : 1_048_576;
}
