/**
 * A command's progress on stderr: on a terminal one line redrawn in place (\r); anywhere else (a CI
 * log, a file, a pipe) whole lines, at most one per whole percent, so a log reads as steps instead
 * of one endless line of carriage returns.
 */
import type { CliIo } from "./args.ts";

export interface ProgressLine {
  /** Shows `text`; `percent` (0..100) decides, off a terminal, whether this step gets a line. */
  update(text: string, percent: number): void;
  /** Ends the redrawn line (on a terminal); nothing otherwise. */
  done(): void;
}

export function progressLine(io: CliIo): ProgressLine {
  const tty = io.stderrIsTTY === true;
  let width = 0;
  let lastPercent = -1;
  return {
    update(text, percent) {
      if (tty) {
        // Padding wipes what a longer previous text left on the line.
        io.stderr(`\r${text.padEnd(width)}`);
        width = text.length;
        return;
      }
      const whole = Math.floor(percent);
      if (whole === lastPercent) return;
      lastPercent = whole;
      io.stderr(`${text}\n`);
    },
    done() {
      if (tty && width > 0) io.stderr("\n");
      width = 0;
    },
  };
}
