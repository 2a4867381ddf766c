/**
 * The journal's file format and how it is read: one record a line, `<json>\t<crc32 hex>\n`, the
 * first a start record naming the format and the seed. Lines are read in bounded chunks, so a
 * journal of any size is read in constant memory (no whole-file read, no 2 GiB limit).
 */
import { readSync } from "node:fs";
import { crc32 } from "node:zlib";

export const JOURNAL_FILE = "journal.ndjson";
export const FORMAT = 1;
/** A journal that starts from a snapshot: a cpsim that knows only FORMAT refuses it rather than replay it from the seed alone. */
export const FORMAT_SNAPSHOT = 2;
/** Bytes read at a time. */
const CHUNK = 1 << 20;
/** A line longer than this is not one the emulator wrote (records hold request bodies of a few MiB at most). */
export const MAX_LINE = 256 << 20;

export type JournalRecord =
  /** The first record: the seed the model starts from, and the snapshot it starts at (none: from the seed alone). */
  | { readonly k: "start"; readonly v: number; readonly seed: number; readonly snap?: SnapshotRef }
  /** A request the backend handled at virtual time t, and that may have changed the model. */
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

/** A snapshot file beside the journal (state-snapshot.ts), named and checked by the start record. */
export interface SnapshotRef {
  readonly file: string;
  readonly bytes: number;
  readonly sha256: string;
}

/** A line's checksum: the CRC-32 of its JSON's bytes, as 8 hex digits. */
const checksum = (json: Buffer): string => crc32(json).toString(16).padStart(8, "0");

/** A record's line, `<json>\t<crc32 hex>\n`, with no copy of the JSON beyond the one into the line (records can be megabytes). */
export function encodeLine(record: JournalRecord): Buffer {
  const json = JSON.stringify(record);
  const n = Buffer.byteLength(json);
  const line = Buffer.allocUnsafe(n + 10);
  line.write(json, 0, n, "utf8");
  line.write(`\t${checksum(line.subarray(0, n))}\n`, n, 10, "latin1");
  return line;
}

/** Whether a line's checksum matches (its JSON is not parsed). */
export function checksumMatches(line: Buffer): boolean {
  const tab = line.lastIndexOf(0x09);
  if (tab === -1 || line.length - tab - 1 !== 8) return false;
  return checksum(line.subarray(0, tab)) === line.toString("latin1", tab + 1);
}

/** The record of a line whose checksum was checked already. */
export function parseCheckedLine(line: Buffer): JournalRecord {
  return JSON.parse(line.toString("utf8", 0, line.lastIndexOf(0x09))) as JournalRecord;
}

/** The record a line holds (without its newline), or undefined when its checksum or JSON is bad. */
export function decodeLine(line: Buffer): JournalRecord | undefined {
  if (!checksumMatches(line)) return undefined;
  try {
    const parsed = parseCheckedLine(line);
    return typeof parsed === "object" && parsed !== null && typeof parsed.k === "string" ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export interface Line {
  /** Offset of the line's first byte. */
  readonly offset: number;
  /** The line without its newline (a view, valid until the next line is read). */
  readonly bytes: Buffer;
  /** False for a last line with no newline (a torn write), or one longer than MAX_LINE. */
  readonly complete: boolean;
}

/** The lines of `fd` from `from` up to `end`, read CHUNK bytes at a time. */
export function* readLines(fd: number, from: number, end: number): Generator<Line> {
  let buf = Buffer.allocUnsafe(CHUNK);
  let start = 0; // first byte of the current line in buf
  let have = 0; // bytes in buf
  let base = from; // file offset of buf[0]
  let pos = from; // next file offset to read
  let scan = 0; // where to look for the next newline in buf
  for (;;) {
    const nl = scan < have ? buf.indexOf(0x0a, scan) : -1;
    if (nl !== -1 && nl < have) {
      yield { offset: base + start, bytes: buf.subarray(start, nl), complete: true };
      start = nl + 1;
      scan = start;
      continue;
    }
    scan = have;
    const partial = (): Line => ({ offset: base + start, bytes: buf.subarray(start, have), complete: false });
    if (pos >= end) {
      if (have > start) yield partial();
      return;
    }
    if (start > 0) {
      // The current line moves to the front: one copy per chunk read, not per line.
      buf.copy(buf, 0, start, have);
      have -= start;
      scan -= start;
      base += start;
      start = 0;
    }
    if (have === buf.length) {
      if (buf.length >= MAX_LINE) {
        yield { offset: base, bytes: buf.subarray(0, 64), complete: false };
        return;
      }
      const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, MAX_LINE));
      buf.copy(bigger, 0, 0, have);
      buf = bigger;
    }
    const n = readSync(fd, buf, have, Math.min(buf.length - have, end - pos), pos);
    if (n === 0) {
      if (have > start) yield partial();
      return;
    }
    have += n;
    pos += n;
  }
}

/** A short, printable excerpt of bytes, for saying what a file holds instead of a journal. */
export function excerpt(bytes: Buffer): string {
  const text = bytes.subarray(0, 40).toString("utf8").replace(/[^\x20-\x7e]/g, "?");
  return JSON.stringify(text) + (bytes.length > 40 ? "…" : "");
}
