// The typed errors of `--state DIR`, and the one sentence per file-system failure an operator reads.

/** A --state directory that cannot be used as it is: `cpsim serve` exits 2 with the message. */
export class JournalError extends Error {
  override readonly name: string = "JournalError";
  readonly code: string = "CPSIM_ERR_JOURNAL";
}

/** The journal holds a damaged complete record: start with `--state-keep-prefix` to keep what comes before it. */
export class JournalDamagedError extends JournalError {
  override readonly name = "JournalDamagedError";
  override readonly code = "CPSIM_ERR_JOURNAL_DAMAGED";
}

/** Writing the journal failed for want of space (or quota): writes are refused until it succeeds again. */
export function isOutOfSpace(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOSPC" || code === "EDQUOT";
}

/** "`path`: cannot `doing`: <what the code means>". */
export function describeFsError(path: string, err: unknown, doing: string): string {
  const e = err as NodeJS.ErrnoException;
  const reason: Record<string, string> = {
    ENOTDIR: "a part of the path is a file, not a directory",
    EISDIR: "it is a directory, not a file",
    EEXIST: "something else of that name is in the way",
    EROFS: "the file system is read-only",
    EACCES: "permission denied",
    EPERM: "permission denied",
    ENOSPC: "the disk is full",
    EDQUOT: "the disk quota is used up",
    ENOENT: "it does not exist",
    EIO: "an input/output error",
    ELOOP: "too many symbolic links",
    ENAMETOOLONG: "the name is too long",
  };
  const why = (e?.code !== undefined ? reason[e.code] : undefined) ?? (e?.message || String(err));
  return `${path}: cannot ${doing}: ${why}${e?.code !== undefined ? ` (${e.code})` : ""}`;
}
