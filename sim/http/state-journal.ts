/**
 * `cpsim serve --state DIR`: the session survives a crash or a restart. The model is
 * deterministic, so what is kept is not a snapshot but the inputs: one record per request the
 * model saw (with the virtual time it saw it at), per clock advance and per reset, in
 * `DIR/journal.ndjson`. On start the model replays them from the seed and reaches the same state.
 *
 * Journal before answer, by group commit: a record is appended when its request is handled,
 * records are written and fdatasync'ed in small batches (each event-loop turn, at most
 * MAX_BATCH records), and every answer waits for the batch holding everything before it. So
 * whatever a client was told has happened is on disk; what is lost in a crash was never answered.
 *
 * Each line is `<json>\t<crc32 hex>`. A crash can tear only the last line: it is detected (no
 * newline, or a checksum that does not match), dropped and reported. A bad line before the last
 * is corruption, not a crash, and the journal is refused rather than half replayed.
 */
import { closeSync, existsSync, fdatasyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "../domain/handlers/crc32.ts";

export const JOURNAL_FILE = "journal.ndjson";
const FORMAT = 1;
/** Records written by one flush at most; beyond it the next turn writes the rest. */
const MAX_BATCH = 512;

export type JournalRecord =
  | { readonly k: "start"; readonly v: number; readonly seed: number }
  /** A request the backend handled at virtual time t. */
  | {
      readonly k: "req";
      readonly t: number;
      readonly m: string;
      readonly p: string;
      readonly q?: Record<string, string>;
      readonly h?: Record<string, string>;
      readonly b?: unknown;
    }
  /** Virtual time moved to t by the control API. */
  | { readonly k: "time"; readonly t: number }
  /** The control API reset the model with this seed. */
  | { readonly k: "reset"; readonly seed: number };

export class JournalError extends Error {
  override readonly name = "JournalError";
  readonly code = "CPSIM_ERR_JOURNAL";
}

export interface OpenedJournal {
  readonly journal: StateJournal;
  /** The seed the journal started from (the one to replay from), when it held records. */
  readonly seed: number | undefined;
  /** Records to replay, in order, after the start record. */
  readonly records: readonly JournalRecord[];
  /** Sentences for the operator: a torn last record dropped, and so on. */
  readonly warnings: readonly string[];
}

function line(record: JournalRecord): string {
  const json = JSON.stringify(record);
  return `${json}\t${crc32(Buffer.from(json)).toString(16).padStart(8, "0")}\n`;
}

/** Opens (or creates) the journal in `dir`; a new one starts with `seed`. */
export function openJournal(dir: string, seed: number): OpenedJournal {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, JOURNAL_FILE);
  const warnings: string[] = [];
  let records: JournalRecord[] = [];
  let startSeed: number | undefined;
  let validBytes = 0;
  if (existsSync(path)) {
    const bytes = readFileSync(path);
    let offset = 0;
    let n = 0;
    while (offset < bytes.length) {
      const nl = bytes.indexOf(0x0a, offset);
      const end = nl === -1 ? bytes.length : nl;
      const parsed = nl === -1 ? undefined : parseLine(bytes.subarray(offset, end));
      if (parsed === undefined) {
        if (nl === -1 || bytes.indexOf(0x0a, nl + 1) === -1) {
          warnings.push(`${path}: the last record (${bytes.length - offset} bytes) is torn, as a crash leaves it; it was never answered and is dropped`);
          break;
        }
        throw new JournalError(`${path}: record ${n + 1} is damaged (its checksum does not match) and records follow it; move the directory away to start afresh`);
      }
      if (n === 0) {
        if (parsed.k !== "start" || parsed.v !== FORMAT) throw new JournalError(`${path} is not a cpsim state journal of format ${FORMAT}`);
        startSeed = parsed.seed;
      } else {
        records.push(parsed);
      }
      n++;
      offset = end + 1;
      validBytes = offset;
    }
  }
  const fd = openSync(path, existsSync(path) ? "r+" : "w+");
  try {
    // Cut a torn tail, so that new records follow the last whole one.
    ftruncateSync(fd, validBytes);
    if (validBytes === 0) {
      writeSync(fd, line({ k: "start", v: FORMAT, seed }), 0);
      fdatasyncSync(fd);
      validBytes = Buffer.byteLength(line({ k: "start", v: FORMAT, seed }));
      records = [];
      startSeed = undefined;
    }
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return { journal: new StateJournal(fd, validBytes), seed: startSeed, records, warnings };
}

function parseLine(bytes: Buffer): JournalRecord | undefined {
  const tab = bytes.lastIndexOf(0x09);
  if (tab === -1) return undefined;
  const crc = bytes.subarray(tab + 1).toString("latin1");
  if (crc32(bytes, 0, tab).toString(16).padStart(8, "0") !== crc) return undefined;
  try {
    return JSON.parse(bytes.subarray(0, tab).toString("utf8")) as JournalRecord;
  } catch {
    return undefined;
  }
}

export class StateJournal {
  private pending: string[] = [];
  private waiters: (() => void)[] = [];
  private scheduled = false;
  private failure: Error | undefined;
  private closed = false;
  /** Records written since open. */
  written = 0;

  constructor(
    private readonly fd: number,
    private position: number,
  ) {}

  /** Queues a record; it is on disk once flushed() resolves. */
  append(record: JournalRecord): void {
    if (this.closed) return;
    this.pending.push(line(record));
    this.schedule();
  }

  /** Resolves when every record appended so far is on disk; rejects if the journal cannot be written. */
  flushed(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.pending.length === 0 && this.waiters.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push(() => (this.failure === undefined ? resolve() : reject(this.failure)));
    });
  }

  /** Whether appended records wait to be written. */
  get busy(): boolean {
    return this.pending.length > 0 || this.waiters.length > 0;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /**
   * Writes one batch synchronously: the write and the sync are short next to what a batch waits
   * for, and a synchronous write cannot interleave with the next batch.
   */
  private flush(): void {
    this.scheduled = false;
    const batch = this.pending.splice(0, MAX_BATCH);
    const waiters = this.pending.length === 0 ? this.waiters.splice(0) : [];
    if (batch.length > 0 && this.failure === undefined && !this.closed) {
      try {
        const data = Buffer.from(batch.join(""));
        let done = 0;
        while (done < data.length) done += writeSync(this.fd, data, done, data.length - done, this.position + done);
        this.position += data.length;
        fdatasyncSync(this.fd);
        this.written += batch.length;
      } catch (err) {
        this.failure = new JournalError(`the state journal could not be written: ${(err as Error).message}`);
      }
    }
    for (const w of waiters) w();
    if (this.pending.length > 0) this.schedule();
  }

  /** Writes what is pending and closes the file. */
  close(): void {
    if (this.closed) return;
    while (this.pending.length > 0) this.flush();
    for (const w of this.waiters.splice(0)) w();
    this.closed = true;
    closeSync(this.fd);
  }
}
