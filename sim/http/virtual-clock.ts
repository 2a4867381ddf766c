/**
 * Maps the wall clock onto virtual time. In real mode virtual time runs `speed` times as fast as
 * the wall clock from an origin pair (virtual, wall); in manual mode it follows only the control
 * API, so a whole HTTP session is deterministic.
 */
import type { Micros } from "../core/index.ts";
import type { ClockMode } from "./options.ts";

export type WallClock = () => number;

export class VirtualClock {
  private originVirtual: Micros;
  private originWall: number;

  constructor(
    readonly mode: ClockMode,
    readonly speed: number,
    start: Micros,
    private readonly wall: WallClock = () => performance.now(),
  ) {
    this.originVirtual = start;
    this.originWall = wall();
  }

  /** The virtual time the wall clock stands for now (real mode); undefined in manual mode. */
  target(): Micros | undefined {
    if (this.mode === "manual") return undefined;
    return this.originVirtual + Math.floor((this.wall() - this.originWall) * 1000 * this.speed);
  }

  /** Starts counting again from `virtual` at this wall instant (after a reset). */
  rebase(virtual: Micros): void {
    this.originVirtual = virtual;
    this.originWall = this.wall();
  }

  /** Jumps the real-mode mapping forward by `us` virtual microseconds. */
  shift(us: Micros): void {
    this.originVirtual += us;
  }

  /** Wall milliseconds until virtual time `t` (real mode), at least 0, rounded up so a timer set for it never fires early. */
  wallDelayMs(t: Micros): number {
    const now = this.target() ?? t;
    return Math.max(0, Math.ceil((t - now) / 1000 / this.speed));
  }
}
