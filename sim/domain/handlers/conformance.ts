// The conformance handler (spec/conformance-handler.md): the known behaviour the conformance
// suite relies on when it drives job endpoints. The same contract is implemented for real
// workers in fixtures/handlers/ (Python and JavaScript), and their tests compare with these plans,
// so every message here is mirrored there word for word.

import { alphabetString } from "./alphabet.ts";
import { InputError, isObject, readInt, type JsonObject } from "./input-error.ts";
import type { HandlerContext, HandlerPlan, JobHandler, StreamEmission } from "./types.ts";

/** Bounds that keep one job's plan (and its memory) finite; the contract sets none. */
export const CONFORMANCE_LIMITS = {
  sleepMaxMs: 600_000,
  bytesMax: 50_000_000,
  streamChunksMax: 10_000,
  streamBytesMax: 100_000_000,
  /** chunks × bytes: what the stream's outputs add up to. */
  streamTotalBytesMax: 100_000_000,
  /** chunks × ms: the stream's total waiting, kept within the sleep op's bound. */
  streamTotalMsMax: 600_000,
} as const;

const L = CONFORMANCE_LIMITS;

function complete(durationMs: number, output: unknown, stream?: readonly StreamEmission[]): HandlerPlan {
  return stream === undefined ? { kind: "complete", durationMs, output } : { kind: "complete", durationMs, output, stream };
}

function fail(error: string): HandlerPlan {
  return { kind: "fail", durationMs: 0, error };
}

function sleep(input: JsonObject): HandlerPlan {
  const ms = readInt(input, "ms", 0, L.sleepMaxMs, undefined, "sleep: ");
  return complete(ms, { slept_ms: ms });
}

function failOp(input: JsonObject): HandlerPlan {
  const message = input["message"];
  if (typeof message === "string") return fail(message);
  // Still a failure, as asked; the message says why it is not the caller's.
  if (message === undefined) return fail(`fail: "message" is required: a string`);
  return fail(`fail: "message" must be a string, got ${JSON.stringify(message)}`);
}

type Refusal = HandlerContext["outputRefusal"];

function bytes(input: JsonObject, refusal: Refusal): HandlerPlan {
  const n = readInt(input, "n", 0, L.bytesMax, undefined, "bytes: ");
  // Refused before the string is built: a 50 MB output would otherwise be made only to be dropped.
  const refused = refusal?.(n + 2);
  if (refused !== undefined) return fail(refused);
  return complete(0, alphabetString(n));
}

function stream(input: JsonObject, refusal: Refusal): HandlerPlan {
  const k = readInt(input, "chunks", 0, L.streamChunksMax, undefined, "stream: ");
  const b = readInt(input, "bytes", 0, L.streamBytesMax, undefined, "stream: ");
  const m = readInt(input, "ms", 0, L.sleepMaxMs, 0, "stream: ");
  if (k * b > L.streamTotalBytesMax) {
    throw new InputError(`stream: chunks * bytes must be at most ${L.streamTotalBytesMax}, got ${k * b}`);
  }
  if (k * m > L.streamTotalMsMax) {
    throw new InputError(`stream: chunks * ms must be at most ${L.streamTotalMsMax}, got ${k * m}`);
  }
  // The outputs serialise to K copies of the piece: the model's output limit applies to that.
  const refused = refusal?.(k * (b + 3) + 2);
  if (refused !== undefined) return fail(refused);
  // Every output is the same string, so the plan shares one value instead of copying it K times.
  const piece = k === 0 ? "" : alphabetString(b);
  const emissions: StreamEmission[] = [];
  for (let i = 0; i < k; i++) emissions.push({ atMs: (i + 1) * m, output: piece });
  return complete(k * m, emissions.map((e) => e.output), emissions);
}

function plan(input: unknown, ctx?: HandlerContext): HandlerPlan {
  const refusal = ctx?.outputRefusal;
  // Without an op the handler echoes, whatever the input is (the platform only sends objects).
  if (!isObject(input) || !Object.prototype.hasOwnProperty.call(input, "op")) return complete(0, input);
  const op = input["op"];
  try {
    switch (op) {
      case "echo":
        return complete(0, input);
      case "sleep":
        return sleep(input);
      case "fail":
        return failOp(input);
      case "bytes":
        return bytes(input, refusal);
      case "stream":
        return stream(input, refusal);
      default:
        return fail(`unknown op ${JSON.stringify(op)}`);
    }
  } catch (err) {
    if (err instanceof InputError) return fail(err.message);
    throw err;
  }
}

export const conformanceHandler: JobHandler = {
  name: "conformance",
  streaming: true,
  plan: (input, ctx) => plan(input, ctx),
};
