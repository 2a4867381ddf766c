// A worker in the model runs a handler in virtual time, so a handler cannot run code that
// takes time. Instead it looks at its input once and returns a plan: how long the execution
// lasts, what it streams and when, and how it ends. The model turns the plan into events.

/** What the model tells a handler about the job it runs. */
export interface HandlerContext {
  readonly jobId: string;
  /**
   * A 32-bit unsigned seed the model derives for this job. It is the only randomness a handler
   * may use, so that the same seed and input always give the same plan.
   */
  readonly seed: number;
  /**
   * The model's memory budget, when it keeps one: given an output's size in bytes (about its
   * JSON length), the sentence the job fails with if the model would not keep it, else undefined.
   * A handler that knows the size before building the output asks first and fails the job with
   * that sentence, so an output that will be refused is never built.
   */
  readonly outputRefusal?: (bytes: number) => string | undefined;
}

/**
 * The `metrics` object a text-generation stream chunk carries on the real platform. Counts are
 * for the emission they ride on; usages are fractions of the cache (0..1).
 */
export interface TextMetrics {
  readonly avg_gen_throughput: number;
  readonly avg_prompt_throughput: number;
  readonly cpu_kv_cache_usage: number;
  readonly gpu_kv_cache_usage: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly pending: number;
  readonly running: number;
  readonly scenario: string;
  readonly stream_index: number;
  readonly swapped: number;
}

/** One output a streaming handler yields, at an offset from the start of execution. */
export interface StreamEmission {
  /** Milliseconds after execution starts; non-decreasing along the stream, at most durationMs. */
  readonly atMs: number;
  readonly output: unknown;
  readonly metrics?: TextMetrics;
}

/**
 * How one execution ends. `durationMs` is the handler's own time (an integer, ≥ 0); the model
 * adds its worker overhead on top. Emissions of a failing plan are recorded before the failure.
 * Outputs are plain JSON data and must be treated as immutable: a plan may share them.
 */
export type HandlerPlan =
  | {
      readonly kind: "complete";
      readonly durationMs: number;
      readonly output: unknown;
      readonly stream?: readonly StreamEmission[];
    }
  | {
      readonly kind: "fail";
      readonly durationMs: number;
      readonly error: string;
      readonly stream?: readonly StreamEmission[];
    };

export interface JobHandler {
  readonly name: string;
  /**
   * Whether the handler can stream at all (the `stream` operation serves it). A streaming
   * handler may still return plans without emissions for some inputs, as the conformance
   * handler does for every op but `stream`.
   */
  readonly streaming: boolean;
  /** Pure: the same input and context give a deep-equal plan. Never throws. */
  plan(input: unknown, ctx: HandlerContext): HandlerPlan;
}
