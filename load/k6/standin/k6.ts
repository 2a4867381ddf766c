/** Stand-in for `k6`: check() records each named result; sleep() really sleeps (bounded). */
import { standin } from "./recorder.ts";

export function check<T>(value: T, sets: Record<string, (v: T) => boolean>): boolean {
  let all = true;
  for (const [name, fn] of Object.entries(sets)) {
    const ok = fn(value) === true;
    const c = standin.checks.get(name) ?? { passes: 0, fails: 0 };
    if (ok) c.passes++;
    else c.fails++;
    standin.checks.set(name, c);
    all &&= ok;
  }
  return all;
}

export function sleep(seconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.min(5000, seconds * 1000));
}
