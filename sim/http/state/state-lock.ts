/**
 * One owner per `--state DIR`: `DIR/lock` is created exclusively (O_EXCL) and holds the owner's
 * pid and start time. It is removed when the owner closes or exits; a lock whose process is gone
 * (killed with SIGKILL, or its pid now another process's, told apart by the start time) is stale
 * and taken over. Written here rather than taken from a library: the check is a dozen lines, and
 * the libraries (proper-lockfile and kin) judge staleness by a file's age, not by its owner.
 */
import { closeSync, fsyncSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { JournalError, describeFsError } from "./state-errors.ts";

export const LOCK_FILE = "lock";

interface LockOwner {
  readonly pid: number;
  /** The process's start, in clock ticks since boot (Linux), or undefined where it cannot be read. */
  readonly start: string | undefined;
  readonly host: string;
  readonly since: string;
}

export class StateLockedError extends JournalError {
  constructor(
    readonly dir: string,
    readonly owner: LockOwner,
  ) {
    super(
      `${dir} is in use by another cpsim serve (pid ${owner.pid} on ${owner.host}, since ${owner.since}); ` +
        `one server per --state directory: stop it or give another directory`,
    );
  }
}

/** The start time of process `pid`, from /proc (field 22 of stat); undefined off Linux or when gone. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    // The command name (field 2) is in parentheses and may hold spaces: count after its end.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19];
  } catch {
    return undefined;
  }
}

function alive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true; // another machine's process (a shared disk): never judged stale
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ESRCH") return false;
  }
  // The pid is taken: by the owner, or by a newer process that reused its number.
  const start = processStart(owner.pid);
  return owner.start === undefined || start === undefined || start === owner.start;
}

export class StateLock {
  private released = false;
  private readonly onExit = () => this.release();

  private constructor(private readonly path: string) {
    process.once("exit", this.onExit);
  }

  /** Takes DIR's lock, taking over a stale one; throws StateLockedError while its owner lives. */
  static acquire(dir: string): StateLock {
    const path = join(dir, LOCK_FILE);
    for (let attempt = 0; attempt < 3; attempt++) {
      const me: LockOwner = { pid: process.pid, start: processStart(process.pid), host: hostname(), since: new Date().toISOString() };
      let fd: number;
      try {
        fd = openSync(path, "wx");
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== "EEXIST") throw new JournalError(describeFsError(path, err, "create the lock file"));
        const owner = readOwner(path);
        if (owner !== undefined && alive(owner)) throw new StateLockedError(dir, owner);
        // Stale (or unreadable: a crash between create and write): the owner is gone.
        rmSync(path, { force: true });
        continue;
      }
      try {
        writeSync(fd, `${JSON.stringify(me)}\n`);
        fsyncSync(fd);
      } catch (err) {
        rmSync(path, { force: true });
        throw new JournalError(describeFsError(path, err, "write the lock file"));
      } finally {
        closeSync(fd);
      }
      return new StateLock(path);
    }
    throw new JournalError(`${path}: could not take the lock (another process keeps replacing it)`);
  }

  /** Removes the lock if it is still this process's. Idempotent. */
  release(): void {
    if (this.released) return;
    this.released = true;
    process.off("exit", this.onExit);
    if (readOwner(this.path)?.pid === process.pid) rmSync(this.path, { force: true });
  }
}

function readOwner(path: string): LockOwner | undefined {
  try {
    const o = JSON.parse(readFileSync(path, "utf8")) as Partial<LockOwner>;
    if (typeof o.pid !== "number" || !Number.isSafeInteger(o.pid) || o.pid <= 0) return undefined;
    return { pid: o.pid, start: typeof o.start === "string" ? o.start : undefined, host: String(o.host ?? hostname()), since: String(o.since ?? "an unknown time") };
  } catch {
    return undefined;
  }
}
