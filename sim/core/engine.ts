/**
 * The engine: a virtual clock, the event queue, a table of event kinds, the root random stream and
 * the event log. Events are plain numbers (time, kind, target, priority) and handlers are looked
 * up by kind in a table, so that scheduling allocates nothing: the model keeps its entities in
 * arrays and passes their index as the target.
 */
import { InvalidParameterError, SchedulingError, StepCapExceededError } from "./errors.ts";
import { EventLog } from "./event-log.ts";
import { EventQueue, MAX_PRIORITY } from "./event-queue.ts";
import { Rng } from "./rng.ts";
import { checkTime } from "./time.ts";
import type { Micros } from "./time.ts";

export type EventKind = number;
/** Opaque: packs a slot and a generation, so a handle to an event that ran or was cancelled is dead. */
export type EventHandle = number;
export type EventHandler = (target: number, now: Micros) => void;

export interface EngineOptions {
  seed: string | number;
  /** Events the engine may run in its lifetime before StepCapExceededError; default 2e9. */
  stepCap?: number;
  startTime?: Micros;
  /** Per-event hashes the log keeps for hashAt(); default 1_000_000, 0 for none. */
  logHistoryLimit?: number;
}

const DEFAULT_STEP_CAP = 2_000_000_000;
/** Kinds are a fixed vocabulary of the model; thousands would mean kinds are being minted per entity. */
const MAX_KINDS = 65_536;

export class Engine {
  readonly rng: Rng;
  readonly log: EventLog;
  private readonly queue = new EventQueue();
  private readonly handlers: EventHandler[] = [];
  private readonly kindNames: string[] = [];
  private readonly kindByName = new Map<string, EventKind>();
  private readonly stepCap: number = 0;
  /** Starts as NaN so that V8 stores it as a double from the first: it outgrows small integers. */
  private clock: Micros = Number.NaN;
  private stepCount = 0;
  /** handlers.length, as a plain field for the validation in at() and after(). */
  private kindCount = 0;
  private running = false;

  constructor(options: EngineOptions) {
    this.rng = new Rng(options.seed);
    this.log = new EventLog({ historyLimit: options.logHistoryLimit });
    const cap = options.stepCap ?? DEFAULT_STEP_CAP;
    if (!Number.isSafeInteger(cap) || cap < 0) {
      throw new InvalidParameterError("stepCap", cap, "a non-negative safe integer");
    }
    this.stepCap = cap;
    this.clock = checkTime(options.startTime ?? 0);
  }

  get now(): Micros {
    return this.clock;
  }

  /** Events scheduled and neither run nor cancelled. */
  get pending(): number {
    return this.queue.pending;
  }

  /** Events run so far. */
  get steps(): number {
    return this.stepCount;
  }

  defineKind(name: string, handler: EventHandler): EventKind {
    if (typeof name !== "string" || name === "") {
      throw new InvalidParameterError("defineKind.name", name, "a non-empty string");
    }
    if (typeof handler !== "function") {
      throw new InvalidParameterError("defineKind.handler", handler, "a function");
    }
    if (this.kindByName.has(name)) {
      throw new SchedulingError("duplicate-kind", `event kind "${name}" is already defined`, {
        name,
        kind: this.kindByName.get(name) as number,
      });
    }
    if (this.handlers.length >= MAX_KINDS) {
      throw new SchedulingError("too-many-kinds", `at most ${MAX_KINDS} event kinds`, { name });
    }
    const kind = this.handlers.length;
    this.handlers.push(handler);
    this.kindCount = kind + 1;
    this.kindNames.push(name);
    this.kindByName.set(name, kind);
    return kind;
  }

  /** The name a kind was defined with, for messages and traces. */
  kindName(kind: EventKind): string {
    const name = this.kindNames[kind];
    if (name === undefined) throw this.unknownKind(kind);
    return name;
  }

  /**
   * Schedules kind(target) at an absolute time >= now. Lower priority runs first at equal time.
   * (9007199254740991 is Number.MAX_SAFE_INTEGER, written out to keep this hot method small;
   * Math.floor(x) === x tests for an integer where x % 1 would compile to a call for the modulo.)
   */
  at(time: Micros, kind: EventKind, target: number, priority = 0): EventHandle {
    if (
      !(time >= this.clock && time <= 9007199254740991 && Math.floor(time) === time) ||
      (kind >>> 0) !== kind ||
      kind >= this.kindCount ||
      (target | 0) !== target ||
      priority !== 0
    ) {
      this.checkSchedule(time, kind, target, priority);
    }
    return this.queue.push(time, priority, kind, target);
  }

  /** Schedules kind(target) after a delay >= 0. */
  after(delay: Micros, kind: EventKind, target: number, priority = 0): EventHandle {
    const time = this.clock + delay;
    if (
      !(delay >= 0 && time <= 9007199254740991 && Math.floor(delay) === delay) ||
      (kind >>> 0) !== kind ||
      kind >= this.kindCount ||
      (target | 0) !== target ||
      priority !== 0
    ) {
      this.checkSchedule(time, kind, target, priority, delay);
    }
    return this.queue.push(time, priority, kind, target);
  }

  /** Cancels a pending event; true if it was still pending. */
  cancel(handle: EventHandle): boolean {
    return this.queue.cancel(handle);
  }

  isPending(handle: EventHandle): boolean {
    return this.queue.isPending(handle);
  }

  /** Time of the earliest pending event. */
  nextTime(): Micros | undefined {
    const t = this.queue.peekTime();
    return t < 0 ? undefined : t;
  }

  /** Runs the earliest event; false when none is pending. */
  step(): boolean {
    return this.run(Number.MAX_SAFE_INTEGER, 1) === 1;
  }

  /** Runs every event with time <= limit, then sets now = limit. Returns the number of events run. */
  runUntil(limit: Micros): number {
    checkTime(limit);
    if (limit < this.clock) {
      throw new SchedulingError("past", `cannot run until t=${limit}us: now is t=${this.clock}us`, {
        time: limit,
        now: this.clock,
      });
    }
    const ran = this.run(limit, Number.MAX_SAFE_INTEGER);
    this.clock = limit;
    return ran;
  }

  /** runUntil(now + delay). */
  runFor(delay: Micros): number {
    checkTime(delay);
    return this.runUntil(checkTime(this.clock + delay));
  }

  /**
   * The loop: runs up to max events with time <= limit and returns how many ran. Handlers may
   * schedule and cancel; running the loop from inside a handler is refused, as it would reorder
   * time. The flag is cleared in finally so that an engine stays usable after a handler throws.
   */
  private run(limit: Micros, max: number): number {
    if (this.running) {
      throw new SchedulingError("reentrant", "step/runUntil called from inside an event handler", {
        now: this.clock,
      });
    }
    this.running = true;
    const queue = this.queue;
    const log = this.log;
    const handlers = this.handlers;
    const cap = this.stepCap;
    let ran = 0;
    try {
      while (ran < max) {
        if (this.stepCount >= cap) {
          const t = queue.peekTime();
          if (t >= 0 && t <= limit) throw new StepCapExceededError(this.stepCount, cap, this.clock);
          break;
        }
        const kind = queue.take(limit);
        if (kind < 0) break;
        const time = queue.lastTime;
        const target = queue.lastTarget;
        this.clock = time;
        this.stepCount++;
        ran++;
        log.record(time, kind, target);
        handlers[kind](target, time);
      }
    } finally {
      this.running = false;
    }
    return ran;
  }

  /**
   * The slow path of at() and after(), kept out of them so that they stay small enough to inline:
   * throws for a bad time, delay, kind, target or priority, and returns when all are valid (a
   * non-zero priority lands here too).
   */
  private checkSchedule(time: number, kind: number, target: number, priority: number, delay?: number): void {
    // An integer before now is a request for the past; anything else that is not a valid time
    // (a fraction, NaN, beyond 2^53) is a TimeOverflowError.
    if (delay !== undefined) {
      if (Number.isSafeInteger(delay) && delay < 0) throw this.pastError(this.clock + delay, kind);
      checkTime(delay);
    }
    if (Number.isSafeInteger(time) && time < this.clock) throw this.pastError(time, kind);
    checkTime(time);
    if (!((kind >>> 0) === kind && kind < this.kindCount)) throw this.unknownKind(kind);
    if ((target | 0) !== target) {
      throw new InvalidParameterError("target", target, "an int32 entity index");
    }
    if (!(priority >= -MAX_PRIORITY && priority <= MAX_PRIORITY && priority % 1 === 0)) {
      throw new InvalidParameterError("priority", priority, `an integer in [-${MAX_PRIORITY}, ${MAX_PRIORITY}]`);
    }
  }

  private pastError(time: number, kind: number): SchedulingError {
    return new SchedulingError("past", `cannot schedule at t=${time}us: now is t=${this.clock}us`, {
      time,
      now: this.clock,
      kind,
    });
  }

  private unknownKind(kind: number): SchedulingError {
    return new SchedulingError("unknown-kind", `unknown event kind ${String(kind)}`, {
      kind: String(kind),
      defined: this.handlers.length,
    });
  }
}
