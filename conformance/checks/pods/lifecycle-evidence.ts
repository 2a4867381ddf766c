/**
 * Evidence for the directed checks: everything the check sent since it began (creates, waits,
 * locks), up to the exchange that shows the failure, with the pod ids those answers passed on,
 * so the failure's curl script replays the whole story on a fresh target.
 */
import type { CheckContext, FailureInput } from "../../check.ts";
import type { CurlCapture } from "../../curl.ts";
import type { Exchange } from "../../recorder.ts";
import { podIdCapture } from "./create-pod-client.ts";

export interface PodCapture {
  readonly variable: string;
  /** The exchange whose answer carries the id (a create). */
  readonly exchange: Exchange;
  readonly id: string;
}

export class Evidence {
  /** The last exchange before the check's story began (the recorder is bounded, so no index). */
  private readonly before: Exchange | undefined;
  private readonly pods: PodCapture[] = [];

  constructor(private readonly ctx: CheckContext) {
    this.before = ctx.client.exchanges().at(-1);
  }

  private story(): readonly Exchange[] {
    const all = this.ctx.client.exchanges();
    return this.before === undefined ? all : all.slice(all.indexOf(this.before) + 1);
  }

  /** Names a created pod's id for the replay (POD_ID, FILLER_1 ...). */
  capture(variable: string, exchange: Exchange, id: string): void {
    this.pods.push({ variable, exchange, id });
  }

  failure(expected: string, exchange?: Exchange): FailureInput {
    const all = this.story();
    const shown = exchange ?? [...all].reverse().find((e) => e.response);
    let index = shown ? all.lastIndexOf(shown) : -1;
    const sequence = index >= 0 ? all.slice(0, index) : all;
    if (index < 0) index = sequence.length;
    const captures: CurlCapture[] = this.pods.flatMap((p) => {
      const from = sequence.indexOf(p.exchange);
      return from >= 0 ? [podIdCapture(p.variable, from, p.exchange, p.id)] : [];
    });
    return { expected, ...(shown ? { exchange: shown } : {}), sequence, ...(captures.length ? { captures } : {}) };
  }
}

/**
 * The failure of one request sent to a pod the check created: the replay creates the pod first
 * and sends the request to the id it gets back.
 */
export function afterCreate(created: Exchange, id: string, expected: string, exchange: Exchange, earlier: readonly Exchange[] = []): FailureInput {
  return {
    expected,
    exchange,
    sequence: [created, ...earlier],
    captures: [podIdCapture("POD_ID", 0, created, id)],
  };
}
