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
import { type JournalRecord, type StateJournal, type WriteFn, openJournal } from "./state-journal.ts";

/** The Flash sentinel's headers name the endpoint a job route reaches (ops/jobs/job-params.ts). */
const FLASH_HEADERS = ["x-flash-app", "x-flash-environment", "x-flash-endpoint"] as const;
/** How long an answer waits for its record while the disk refuses, before it is told so. */
const STALL_ANSWER_MS = 10_000;

export interface StateSessionOptions {
  readonly dir: string;
  readonly seed: number;
  readonly keepValidPrefix?: boolean;
  /** For tests: the journal's write (one that fails as a full disk does). */
  readonly write?: WriteFn;
}

export class StateSession {
  readonly warnings: string[] = [];
  /** The seed in force after the replay. */
  readonly seed: number;
  /** Records replayed on start. */
  readonly replayed: number;

  private constructor(
    private readonly journal: StateJournal,
    seed: number,
    replayed: number,
  ) {
    this.seed = seed;
    this.replayed = replayed;
  }

  /** Opens DIR's journal and replays it onto `backend` (fresh from options.seed). Throws JournalError. */
  static open(backend: EmulatorBackend, options: StateSessionOptions): StateSession {
    const opened = openJournal(options.dir, options.seed, {
      ...(options.keepValidPrefix ? { keepValidPrefix: true } : {}),
      ...(options.write ? { write: options.write } : {}),
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
      if (opened.seed !== undefined) seed = replayJournal(backend, opened.records(), opened.seed);
      finished = opened.finish();
    } catch (err) {
      opened.abandon();
      throw err;
    }
    const session = new StateSession(finished.journal, seed, finished.count);
    session.warnings.push(...finished.warnings, ...warnings);
    return session;
  }

  /** Bytes in the journal, records written since open, failed writes. */
  stats(): { bytes: number; written: number; failures: number; unavailable: string | undefined } {
    return { bytes: this.journal.bytes, written: this.journal.written, failures: this.journal.failures, unavailable: this.journal.unavailable };
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
    try {
      this.journal.restart(seed);
    } catch {
      // The old journal is intact: the reset is appended to it instead (and retried like any record).
      this.journal.append({ k: "reset", seed });
    }
  }

  /**
   * Calls `send` once every record so far is on disk (at once when none waits), or `fail` with
   * a 507 when the disk has refused it for a while (the record stays queued and is written when
   * the disk has room: the change is then kept, though its client was told it might not be).
   */
  whenDurable(send: () => void, fail: (response: ApiResponse) => void, change: boolean): void {
    // A read waits for the batch before it (it may show that batch's changes), except while the
    // disk refuses: then reads go on, showing changes still on their way to disk.
    if (!this.journal.busy || (!change && this.journal.unavailable !== undefined)) {
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

  close(): void {
    this.journal.close();
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
