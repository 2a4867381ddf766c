/**
 * The transport's side of `--state DIR`: opens the journal (taking the directory's lock),
 * replays it onto the backend, keeps the changes the model accepts (journal-policy.ts), holds
 * each answer until its record is on disk, and refuses changes with 507 while the journal cannot
 * be written (a full disk), reads going on, until a retry succeeds.
 */
import type { Micros } from "../../core/index.ts";
import { problem } from "../../api/problem.ts";
import type { ApiRequest, ApiResponse, HttpMethod } from "../../api/types.ts";
import type { EmulatorBackend } from "../backend.ts";
import { changedModel, mayChange } from "./journal-policy.ts";
import { GraphError, type SplitCapture, splitCaptureBytes } from "./model-graph.ts";
import { JournalDamagedError, JournalError } from "./state-errors.ts";
import { type JournalRecord, type StateJournal, openJournal } from "./state-journal.ts";
import { MAX_SNAPSHOT_BYTES } from "./state-snapshot.ts";

/** The Flash sentinel's headers name the endpoint a job route reaches (ops/jobs/job-params.ts). */
const FLASH_HEADERS = ["x-flash-app", "x-flash-environment", "x-flash-endpoint"] as const;
/** How long an answer waits for its record while the disk refuses, before it is told so. */
const STALL_ANSWER_MS = 10_000;
/** The journal is folded into a snapshot once it holds this many bytes (and at least as many as the snapshot). */
export const DEFAULT_COMPACT_BYTES = 64 << 20;

export interface StateSessionOptions {
  readonly dir: string;
  readonly seed: number;
  readonly keepValidPrefix?: boolean;
  /** For tests: a module whose `createWritev(dir)` replaces the journal's write (one that fails as a full disk does). */
  readonly writeModule?: string;
  /** Journal bytes past which it is folded into a snapshot (DEFAULT_COMPACT_BYTES); 0: never. */
  readonly compactBytes?: number;
  /** Told what went wrong with a compaction (the journal then keeps growing). */
  readonly warn?: (message: string) => void;
}

export class StateSession {
  readonly warnings: string[] = [];
  /** The seed in force after the replay. */
  readonly seed: number;
  /** Records replayed on start. */
  readonly replayed: number;

  /** Snapshots written since open. */
  snapshots = 0;
  /** Folds given up because more than MAX_FOLD_TAIL bytes of changes came while they ran (large uploads): tried again later. */
  foldsDeferred = 0;
  /**
   * Milliseconds of the last fold: the capture (on the event loop), the long strings' copy (a
   * few a turn) with the check and the snapshot's write (on a worker thread), the new journal's
   * write (on the journal's thread); requests are answered meanwhile but for the capture.
   */
  lastFoldMs: readonly [number, number, number] | undefined;
  private closed = false;
  private inFlight: Promise<boolean> | undefined;
  /** Why compaction stopped (the journal then only grows), undefined while it runs. */
  compaction: string | undefined;
  private current: number;
  private compactAt: number;
  private compactScheduled = false;

  private constructor(
    private readonly journal: StateJournal,
    private readonly backend: EmulatorBackend,
    seed: number,
    replayed: number,
    private readonly compactBytes: number,
    private readonly warn: (message: string) => void,
    private readonly dir: string,
  ) {
    this.seed = seed;
    this.current = seed;
    this.replayed = replayed;
    this.compactAt = compactBytes;
    if (compactBytes === 0) this.compaction = "off (--state-compact-mb 0)";
    else if (backend.captureStateApart === undefined || backend.saveState === undefined) this.compaction = "off: this backend cannot capture its state";
    // The journal's size changes only when its writer reports: the bound is checked then.
    journal.onProgress = () => this.maybeCompact();
  }

  /** Opens DIR's journal and replays it onto `backend` (fresh from options.seed). Throws JournalError. */
  static open(backend: EmulatorBackend, options: StateSessionOptions): StateSession {
    const opened = openJournal(options.dir, options.seed, {
      ...(options.keepValidPrefix ? { keepValidPrefix: true } : {}),
      ...(options.writeModule ? { writeModule: options.writeModule } : {}),
    });
    let seed = options.seed;
    const warnings: string[] = [];
    if (opened.seed !== undefined) {
      if (opened.seed !== options.seed) {
        warnings.push(`${options.dir} was started with seed ${opened.seed}; it replays with that seed, not ${options.seed}`);
        backend.reset(opened.seed);
      }
    }
    let finished: ReturnType<typeof opened.finish>;
    try {
      if (opened.snapshot !== undefined) restoreSnapshot(backend, opened.snapshot, options.dir);
      if (opened.seed !== undefined) seed = replayJournal(backend, opened.records(), opened.seed);
      finished = opened.finish();
    } catch (err) {
      opened.abandon();
      throw err;
    }
    const session = new StateSession(finished.journal, backend, seed, finished.count, options.compactBytes ?? DEFAULT_COMPACT_BYTES, options.warn ?? (() => {}), options.dir);
    session.warnings.push(...finished.warnings, ...warnings);
    return session;
  }

  /** Bytes in the journal and its snapshot, records written since open, failed writes, snapshots written, and why compaction is off. */
  stats(): {
    bytes: number;
    snapshotBytes: number;
    written: number;
    failures: number;
    snapshots: number;
    foldsDeferred: number;
    lastFoldMs: readonly [number, number, number] | undefined;
    unavailable: string | undefined;
    compaction: string | undefined;
  } {
    return {
      lastFoldMs: this.lastFoldMs,
      bytes: this.journal.bytes,
      snapshotBytes: this.journal.snapshotBytes,
      written: this.journal.written,
      failures: this.journal.failures,
      snapshots: this.snapshots,
      foldsDeferred: this.foldsDeferred,
      unavailable: this.journal.unavailable,
      compaction: this.compaction,
    };
  }

  /** Folds the journal into a snapshot soon (between requests) once it has grown past the bound. */
  private maybeCompact(): void {
    if (this.compaction !== undefined || this.compactScheduled || this.inFlight !== undefined || this.journal.folding || this.journal.bytes < this.compactAt) return;
    this.compactScheduled = true;
    setImmediate(() => {
      this.compactScheduled = false;
      this.inFlight = this.fold().finally(() => (this.inFlight = undefined));
    });
  }

  /** Resolves once no fold is in flight. */
  async folded(): Promise<void> {
    while (this.inFlight !== undefined) await this.inFlight;
  }

  /**
   * Captures the model (in this thread: the capture is the state as of now), then, off the event
   * loop, checks the capture by restoring it into a second fresh model and writes it as a
   * snapshot only if the two agree (a snapshot that would not restart to the same state is never
   * written); meanwhile requests go on and their records are kept for the new journal, which
   * then replaces the old one. A failed write leaves the journal as it was and tries again after
   * as many bytes more; a capture that cannot be trusted turns folding off, saying why. Resolves
   * to whether a snapshot now stands.
   */
  async fold(): Promise<boolean> {
    if (this.compaction !== undefined || this.journal.folding || this.journal.unavailable !== undefined || this.closed) return false;
    const stop = (why: string): false => {
      this.compaction = `off: ${why}`;
      this.warn(`--state: the journal is no longer folded into snapshots: ${why}; it keeps every change instead`);
      return false;
    };
    const later = (why: string): false => {
      this.compactAt = this.journal.bytes + this.compactBytes;
      this.warn(`--state: a snapshot could not be written (${why}); the journal is kept as it is and folded again later`);
      return false;
    };
    const t0 = performance.now();
    let split: SplitCapture | undefined;
    try {
      split = this.backend.captureStateApart!();
    } catch (err) {
      return stop(`the state cannot be captured (${(err as Error).message})`);
    }
    if (split === undefined) return stop("the model's state is held outside it now (real handlers or outside workers)");
    const bytes = splitCaptureBytes(split);
    if (bytes > MAX_SNAPSHOT_BYTES) return stop(`the state is ${bytes} bytes, more than a snapshot holds (${MAX_SNAPSHOT_BYTES})`);
    const seed = this.current;
    this.journal.beginFold();
    const captured = performance.now() - t0;
    const saved = await this.backend.saveState!(split, seed, this.dir);
    const t1 = performance.now();
    // Closed or reset meanwhile (everything captured is dead): the file is left for the next start or fold to remove.
    if (this.closed || !this.journal.folding) return false;
    if (saved.kind !== "saved") {
      this.journal.abortFold();
      return saved.kind === "differs" ? stop(`a snapshot would not restore to the same state (${saved.why})`) : later(saved.why);
    }
    const outcome = await this.journal.commitFold(seed, saved.ref);
    if (!outcome.ok) {
      if (this.closed) return false;
      if (!outcome.overflowed) return later(outcome.why);
      // Changes as large as the state came in while it ran: a capture costs as much again, so the
      // next waits as long (tried again after that many bytes more).
      this.foldsDeferred++;
      this.compactAt = this.journal.bytes + Math.max(this.compactBytes, bytes);
      return false;
    }
    this.snapshots++;
    this.lastFoldMs = [captured, t1 - t0 - captured, performance.now() - t1];
    this.compactAt = Math.max(this.compactBytes, bytes);
    return true;
  }

  /** A 507 for a request that may change the model while the journal cannot be written; undefined otherwise. */
  refusal(request: Pick<ApiRequest, "method" | "path" | "query" | "body"> | "control"): ApiResponse | undefined {
    const why = this.journal.unavailable;
    if (why === undefined) return undefined;
    if (request !== "control" && !mayChange(request)) return undefined;
    return problem(507, `${why}; the emulator refuses changes until it can keep them (reads go on) and takes them again by itself once the disk has room`, {
      headers: { "retry-after": "5" },
    });
  }

  /** Keeps a request the backend handled at virtual time `at`, if it changed the model; says whether it did. */
  request(r: ApiRequest, at: Micros, answer: number | "wait" | "threw"): boolean {
    if (!changedModel(r, answer)) return false;
    const h: Record<string, string> = {};
    const auth = r.headers["authorization"];
    const length = r.headers["content-length"];
    if (auth !== undefined) h.authorization = auth;
    if (length !== undefined) h["content-length"] = length;
    for (const name of FLASH_HEADERS) if (r.headers[name] !== undefined) h[name] = r.headers[name]!;
    this.journal.append({
      k: "req",
      t: at,
      m: r.method,
      p: r.path,
      ...(Object.keys(r.query).length > 0 ? { q: { ...r.query } } : {}),
      ...(Object.keys(h).length > 0 ? { h } : {}),
      ...(r.body !== undefined ? { b: r.body } : {}),
    });
    return true;
  }

  advanced(t: Micros): void {
    this.journal.append({ k: "time", t });
  }

  /** After a reset everything before it is dead: the journal starts again from the new seed. */
  reset(seed: number): void {
    this.current = seed;
    // The state is new and small: the bound is the configured one again, not the last snapshot's size.
    this.compactAt = this.compactBytes;
    this.journal.restart(seed);
  }

  /**
   * For a change: calls `send` once every record so far is on disk (at once when none waits), or `fail` with
   * a 507 when the disk has refused it for a while (the record stays queued and is written when
   * the disk has room: the change is then kept, though its client was told it might not be).
   */
  whenDurable(send: () => void, fail: (response: ApiResponse) => void, change: boolean): void {
    // A read answers at once: it may show changes whose own answers still wait for the disk (a
    // crash before they are written loses them, as their clients were never told they happened).
    // Waiting would put every read behind the writes in flight: behind 40 MB of uploads, 300 ms.
    // An acknowledged change is never lost, nor anything journaled before it (the journal is in
    // order): a change made after a read showed another one survives only with it.
    if (!change || !this.journal.busy) {
      send();
      return;
    }
    let done = false;
    const timer = setTimeout(() => {
      if (this.journal.unavailable === undefined || done) return;
      done = true;
      fail(
        problem(507, `${this.journal.unavailable}; this change was made but is not on disk yet: it is kept if space returns before the emulator stops`, {
          headers: { "retry-after": "5" },
        }),
      );
    }, STALL_ANSWER_MS);
    timer.unref();
    this.journal.flushed().then(
      () => {
        clearTimeout(timer);
        if (done) return;
        done = true;
        send();
      },
      (err: Error) => {
        clearTimeout(timer);
        if (done) return;
        done = true;
        fail(problem(503, `${err.message}; this change may not survive a restart`, { headers: { "retry-after": "5" } }));
      },
    );
  }

  /** Writes what is pending, stops the journal's writer and releases the directory. */
  close(): Promise<void> {
    this.closed = true;
    return this.journal.close();
  }
}

/** Brings a backend fresh from the journal's seed to the snapshot's state; a snapshot it cannot take is damage. */
function restoreSnapshot(backend: EmulatorBackend, snapshot: Buffer, dir: string): void {
  if (backend.restoreState === undefined) {
    throw new JournalError(`${dir} starts from a snapshot, which this emulator cannot restore (it serves real handlers or outside workers); start it as the directory was written, or give --state another directory`);
  }
  try {
    backend.restoreState(snapshot);
  } catch (err) {
    if (!(err instanceof GraphError)) throw err;
    throw new JournalDamagedError(`${dir}: its snapshot cannot be restored (${err.message}); it was written by another version, or is damaged: move the directory away to start afresh`);
  }
}

/**
 * Replays journal records onto a backend fresh from `seed`: each request at the virtual time it
 * was handled, each advance and reset. Webhooks that fall due meanwhile are dropped (they were
 * sent before the restart, or are lost with it). Returns the seed in force at the end.
 */
export function replayJournal(backend: EmulatorBackend, records: Iterable<JournalRecord>, seed: number): number {
  for (const r of records) {
    if (r.k === "time") backend.advanceTo(r.t);
    else if (r.k === "reset") {
      backend.reset(r.seed);
      seed = r.seed;
    } else if (r.k === "req") {
      backend.advanceTo(r.t);
      const query: Record<string, string> = Object.create(null);
      if (r.q) for (const [k, v] of Object.entries(r.q)) query[k] = v;
      try {
        backend.handle({ method: r.m as HttpMethod, path: r.p, query, headers: { ...r.h }, body: r.b });
      } catch {
        // It answered 500 the first time too; its effects up to the throw are replayed all the same.
      }
    }
    backend.drainWebhooks();
  }
  return seed;
}
