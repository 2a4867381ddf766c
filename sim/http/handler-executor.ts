/**
 * `cpsim serve --handler ID=FILE`: the serverless model's ExternalExecutor seam backed by a user's
 * handler runtime. The model decides when a job starts (queue, workers, scaling) and when it must
 * stop (cancel, execution timeout, lifetime); this runs the handler for real and reports its
 * stream outputs and its end back into the model at the moment they happen, through `apply`,
 * which the transport provides so that the model is first brought to the wall clock's time.
 */
import type { ExternalExecutor, ExternalJob, ExternalResult, Serverless } from "../domain/serverless/index.ts";
import type { Execution, HandlerRuntime } from "../handler/index.ts";

/** Runs `change` against the model at the current time, then lets the transport react (answer waits, re-arm timers). */
export type ApplyChange = (change: () => void) => void;

export class HandlerExecutor implements ExternalExecutor {
  private readonly running = new Map<number, Execution>();
  /** Bumped when the model is rebuilt: reports from executions of an older model are dropped. */
  private generation = 0;

  constructor(
    readonly endpointId: string,
    readonly runtime: HandlerRuntime,
    private readonly model: () => Serverless,
    private readonly apply: () => ApplyChange,
  ) {}

  start(ticket: number, job: ExternalJob): void {
    const generation = this.generation;
    const report = (change: (model: Serverless) => void): void => {
      if (generation !== this.generation) return;
      this.apply()(() => change(this.model()));
    };
    const execution = this.runtime.run({ id: job.id, input: job.input }, (output) => report((m) => m.externalChunk(ticket, output)));
    this.running.set(ticket, execution);
    void execution.result.then((outcome) => {
      if (this.running.get(ticket) !== execution) return;
      this.running.delete(ticket);
      // A stopped execution was ended by the model itself; it has nothing to report.
      if (!outcome.ok && outcome.stopped === true) return;
      const result: ExternalResult = outcome.ok ? { ok: true, output: outcome.output ?? null } : { ok: false, error: outcome.error };
      report((m) => m.externalFinish(ticket, result));
    });
  }

  stop(ticket: number): void {
    const execution = this.running.get(ticket);
    this.running.delete(ticket);
    execution?.stop();
  }

  /** Executions running now. */
  get size(): number {
    return this.running.size;
  }

  /** The model was rebuilt (reset): everything running belongs to the old one and is stopped. */
  reset(): void {
    this.generation++;
    for (const execution of this.running.values()) execution.stop();
    this.running.clear();
  }
}
