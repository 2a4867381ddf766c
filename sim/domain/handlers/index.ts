// The job handlers the simulated platform can run, by name. Endpoints name a handler; public
// model endpoints map their slug to one of the model handlers.

import { conformanceHandler } from "./conformance.ts";
import { imageGenerationHandler } from "./image-generation.ts";
import { textGenerationHandler } from "./text-generation.ts";
import type { JobHandler } from "./types.ts";

export type { HandlerContext, HandlerPlan, JobHandler, StreamEmission, TextMetrics } from "./types.ts";
export { conformanceHandler, CONFORMANCE_LIMITS } from "./conformance.ts";
export { imageGenerationHandler, IMAGE_LIMITS, type GeneratedImage } from "./image-generation.ts";
export { textGenerationHandler, TEXT_LIMITS, type TextGenerationOutput } from "./text-generation.ts";
export { splitStreamOutput, utf8ByteLength, STREAM_CHUNK_MAX_BYTES } from "./split-stream-output.ts";
export { decodePngHeader, encodePngRgb, readPngChunks, PngFormatError, type PngHeader, type PngChunk } from "./png.ts";
export { alphabetString } from "./alphabet.ts";
export { planViolations } from "./plan-invariants.ts";

export const handlers: Readonly<Record<string, JobHandler>> = Object.freeze({
  [conformanceHandler.name]: conformanceHandler,
  [imageGenerationHandler.name]: imageGenerationHandler,
  [textGenerationHandler.name]: textGenerationHandler,
});

/** The handler of that name, or undefined (never an inherited property such as "constructor"). */
export function getHandler(name: string): JobHandler | undefined {
  return Object.prototype.hasOwnProperty.call(handlers, name) ? handlers[name] : undefined;
}
