/**
 * Makes the lazy parts of an answer (an image job's pictures, see domain/handlers/lazy-output.ts)
 * before the answer is written, on a worker thread, so that rendering 4 × 2048² pictures (about
 * a second of CPU) never holds the event loop: other requests are answered meanwhile. The same
 * part asked for by several readers is made once; a made part is kept by its output (counted by
 * the results budget at its full size since the job ran). If the worker cannot run, the part is
 * left unmade and the first serialisation makes it in this thread (the same bytes, only slower).
 */
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { type LazyString, type MosaicRecipe, lazyPartOf } from "../domain/handlers/lazy-output.ts";
import { workerModule, workerExecArgv } from "../package-root.ts";

/** Objects looked at for lazy parts in one answer; outputs with lazy parts are small trees. */
const MAX_NODES = 10_000;

let pool: Piscina<MosaicRecipe, string> | undefined;
const pending = new WeakMap<LazyString, Promise<void>>();
let inFlight = 0;
let gate: Promise<void> | undefined;

function renderPool(): Piscina<MosaicRecipe, string> {
  // One thread: it leaves the other core to the event loop; idle threads do not keep the process.
  pool ??= new Piscina({ execArgv: workerExecArgv(), filename: fileURLToPath(workerModule(import.meta.url, "lazy-render-worker")), minThreads: 0, maxThreads: 1, idleTimeout: 10_000 });
  return pool;
}

/** The unmade lazy parts of `value` (looking at MAX_NODES objects at most, never making one). */
export function unmadeParts(value: unknown): LazyString[] {
  const found: LazyString[] = [];
  if (value === null || typeof value !== "object") return found;
  const stack: object[] = [value];
  for (let seen = 0; stack.length > 0 && seen < MAX_NODES; seen++) {
    const v = stack.pop()!;
    const lazy = lazyPartOf(v);
    if (lazy !== undefined && lazy.value === undefined) found.push(lazy);
    if (Array.isArray(v)) {
      for (const item of v) if (item !== null && typeof item === "object") stack.push(item);
      continue;
    }
    for (const key in v) {
      if (lazy !== undefined && key === lazy.key) continue; // reading it would make it here
      const item = (v as Record<string, unknown>)[key];
      if (item !== null && typeof item === "object") stack.push(item);
    }
  }
  return found;
}

async function make(part: LazyString): Promise<void> {
  inFlight++;
  try {
    if (gate !== undefined) await gate;
    const value = await renderPool().run(part.recipe);
    if (typeof value === "string" && value.length === part.length) part.value ??= value;
  } catch {
    // Left unmade: serialising the answer makes it in this thread.
  } finally {
    inFlight--;
    pending.delete(part);
  }
}

/** Makes the given parts off the event loop; resolves when all are made (never rejects). */
export function makeParts(parts: readonly LazyString[]): Promise<void> {
  return Promise.all(
    parts.map((part) => {
      if (part.value !== undefined) return undefined;
      let p = pending.get(part);
      if (p === undefined) {
        p = make(part);
        pending.set(part, p);
      }
      return p;
    }),
  ).then(() => undefined);
}

/** Lazy parts being made now (for tests and diagnostics). */
export function rendersInFlight(): number {
  return inFlight;
}

/**
 * For tests: renders wait until the returned function is called, so a test can act while a
 * render is certainly in progress (ordered by events, not by time).
 */
export function holdRenders(): () => void {
  let release!: () => void;
  gate = new Promise<void>((r) => (release = r));
  return () => {
    gate = undefined;
    release();
  };
}
