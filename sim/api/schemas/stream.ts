/**
 * Streaming: a chunk carries handler-defined `output` and, for text-generation handlers, a
 * `metrics` object. The spec names the metrics but not their types; counts are typed integer,
 * rates and usages number, `scenario` string, all optional. StreamResponse is the answer of
 * `stream` as the real platform gives it (choices.md): the job's status and the chunk array.
 */
import { Type, type Static } from "@sinclair/typebox";
import { JobStatus } from "./job-status.ts";
import { Ref, schemaId } from "./schema-helpers.ts";

export const StreamMetrics = Type.Object(
  {
    avg_gen_throughput: Type.Optional(Type.Number()),
    avg_prompt_throughput: Type.Optional(Type.Number()),
    cpu_kv_cache_usage: Type.Optional(Type.Number()),
    gpu_kv_cache_usage: Type.Optional(Type.Number()),
    input_tokens: Type.Optional(Type.Integer()),
    output_tokens: Type.Optional(Type.Integer()),
    pending: Type.Optional(Type.Integer()),
    running: Type.Optional(Type.Integer()),
    scenario: Type.Optional(Type.String()),
    stream_index: Type.Optional(Type.Integer()),
    swapped: Type.Optional(Type.Integer()),
  },
  { $id: schemaId("StreamMetrics") },
);
export type StreamMetrics = Static<typeof StreamMetrics>;

export const StreamChunk = Type.Object(
  { output: Type.Unknown(), metrics: Type.Optional(Ref(StreamMetrics)) },
  { $id: schemaId("StreamChunk") },
);
export type StreamChunk = Static<typeof StreamChunk>;

export const StreamResponse = Type.Object(
  { status: Ref(JobStatus), stream: Type.Array(Ref(StreamChunk)) },
  { $id: schemaId("StreamResponse") },
);
export type StreamResponse = Static<typeof StreamResponse>;
