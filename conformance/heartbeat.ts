/**
 * The heartbeat of a long run: while a rule runs longer than `everyMs`, a line at most every
 * `everyMs` names it, how long it has run, and what it waits on now (a request in flight, the
 * rate-limit pacer, or what the check last said), with the time of day, so a real-time run is
 * never silent for minutes. Several rules may run at once (the areas run concurrently): each
 * running rule gets its own line.
 *
 * What a rule waits on is found through its async context: `track` runs a unit inside an
 * AsyncLocalStorage, and `waitingOn` (called by the client around a request and a pacer's wait)
 * and `noteActivity` (a check's log) write into whatever unit is running there, without being
 * handed anything.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { formatDuration } from "../reports/format.ts";

interface Wait {
  readonly what: string;
  readonly since: number;
}

interface Running {
  readonly ids: readonly string[];
  readonly since: number;
  readonly waits: Set<Wait>;
  said?: { readonly text: string; readonly at: number };
  answer?: { readonly what: string; readonly status: number; readonly at: number };
}

const current = new AsyncLocalStorage<{ readonly unit: Running; readonly now: () => number }>();

/**
 * Marks the running rule as waiting on `what` until the returned function is called with the
 * answer's status (or nothing); outside a tracked rule, nothing.
 */
export function waitingOn(what: string): (status?: number) => void {
  const store = current.getStore();
  if (store === undefined) return () => {};
  const wait = { what, since: store.now() };
  store.unit.waits.add(wait);
  return (status?: number) => {
    store.unit.waits.delete(wait);
    if (status !== undefined) store.unit.answer = { what, status, at: store.now() };
  };
}

/** What the running rule last said (a check's progress message). */
export function noteActivity(text: string): void {
  const store = current.getStore();
  if (store !== undefined) store.unit.said = { text, at: store.now() };
}

export class Heartbeat {
  private readonly running = new Set<Running>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (line: string) => void,
    private readonly everyMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Runs one unit (the rules `ids`, judged together) as a running rule of the heartbeat. */
  async track<T>(ids: readonly string[], run: () => Promise<T>): Promise<T> {
    const unit: Running = { ids, since: this.now(), waits: new Set() };
    this.running.add(unit);
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.tick(), this.everyMs);
      this.timer.unref();
    }
    try {
      return await current.run({ unit, now: this.now }, run);
    } finally {
      this.running.delete(unit);
      if (this.running.size === 0) this.stop();
    }
  }

  /** One beat: a line for each rule running longer than `everyMs` (the timer calls it; a test may). */
  tick(): void {
    const now = this.now();
    for (const unit of this.running) {
      if (now - unit.since < this.everyMs) continue;
      this.write(`${clock(now)} still running ${unit.ids.join(", ")} (${formatDuration(now - unit.since)}): ${this.doing(unit, now)}`);
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private doing(unit: Running, now: number): string {
    // The oldest wait is the one holding the rule up.
    const waits = [...unit.waits].sort((a, b) => a.since - b.since);
    if (waits.length > 0) {
      const more = waits.length > 1 ? ` (and ${waits.length - 1} more)` : "";
      return `waiting on ${waits[0]!.what} for ${formatDuration(now - waits[0]!.since)}${more}`;
    }
    // Between requests (a poll's pause): the latest of the last answer and what the check said.
    const answer = unit.answer ? { at: unit.answer.at, text: `between requests: ${unit.answer.what} answered ${unit.answer.status} ${formatDuration(now - unit.answer.at)} ago` } : undefined;
    const said = unit.said ? { at: unit.said.at, text: `last said "${unit.said.text}" ${formatDuration(now - unit.said.at)} ago` } : undefined;
    const latest = [answer, said].filter((x) => x !== undefined).sort((a, b) => b.at - a.at)[0];
    if (latest) return latest.text;
    return "working (no request in flight)";
  }
}

/** "17:32:05Z": the time of day in UTC, to set a line against the target's logs. */
function clock(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 19)}Z`;
}
