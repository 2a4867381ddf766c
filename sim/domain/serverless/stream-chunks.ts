/**
 * A plan's stream emissions flattened into the chunks the stream operation returns: each output
 * split by splitStreamOutput into pieces of at most 1 MB (the first piece carries the emission's
 * metrics), each piece visible from its emission's offset. Built on the first stream read of a
 * job, not at execution, so jobs nobody streams cost nothing.
 */
import { splitStreamOutput } from "../handlers/index.ts";
import type { HandlerPlan } from "../handlers/index.ts";
import type { StreamChunk } from "./types.ts";

export interface FlatStream {
  readonly chunks: readonly StreamChunk[];
  /** Microseconds after the start at which chunks[i] becomes visible (non-decreasing). */
  readonly atUs: readonly number[];
}

const EMPTY: FlatStream = Object.freeze({ chunks: Object.freeze([]), atUs: Object.freeze([]) });

export function flattenStream(plan: HandlerPlan | undefined, maxBytes?: number): FlatStream {
  if (plan === undefined || plan.stream === undefined || plan.stream.length === 0) return EMPTY;
  const chunks: StreamChunk[] = [];
  const atUs: number[] = [];
  for (const emission of plan.stream) {
    const pieces = splitStreamOutput(emission.output, maxBytes);
    for (let i = 0; i < pieces.length; i++) {
      chunks.push(i === 0 && emission.metrics !== undefined ? { output: pieces[i], metrics: emission.metrics } : { output: pieces[i] });
      atUs.push(emission.atMs * 1000);
    }
  }
  return { chunks, atUs };
}
