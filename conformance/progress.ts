/**
 * Live progress. On a terminal (TTY) one line is rewritten in place as rules finish (counts and
 * the rule just judged), and cleared before the summary; elsewhere (a CI log) one line per rule
 * as it finishes; with --quiet nothing.
 */
import type { RuleResult } from "../reports/conformance-report.ts";
import { formatDuration } from "../reports/format.ts";

export function progressLine(index: number, total: number, result: RuleResult): string {
  const width = String(total).length;
  const tag = result.status.toUpperCase().padEnd(5);
  const note = result.status === "fail" ? `  ${result.failures.length} failure(s)` : result.reason ? `  (${result.reason})` : "";
  return `[${String(index).padStart(width)}/${total}] ${tag} ${result.id}  ${formatDuration(result.durationMs)}${note}\n`;
}

export type ProgressMode = "tty" | "lines" | "quiet";

export class Progress {
  private done = 0;
  private readonly counts = { pass: 0, fail: 0, skip: 0, known: 0 };
  private shown = false;

  constructor(
    private readonly mode: ProgressMode,
    private readonly total: number,
    private readonly write: (text: string) => void,
    private readonly width = 100,
  ) {}

  rule(result: RuleResult): void {
    this.done++;
    this.counts[result.status]++;
    if (this.mode === "lines") this.write(progressLine(this.done, this.total, result));
    if (this.mode !== "tty") return;
    const c = this.counts;
    const head = `[${this.done}/${this.total}] ${c.pass} passed, ${c.fail} failed, ${c.skip} skipped${c.known ? `, ${c.known} known` : ""}  `;
    const line = `${head}${result.id}`.slice(0, Math.max(20, this.width - 1));
    // \r and "erase to end of line": the same line, rewritten.
    this.write(`\r\x1b[K${line}`);
    this.shown = true;
  }

  /** A line between the rules' own (the heartbeat): one line in a log, the live line on a terminal. */
  note(text: string): void {
    if (this.mode === "lines") this.write(`  ${text}\n`);
    if (this.mode !== "tty") return;
    this.write(`\r\x1b[K${text.slice(0, Math.max(20, this.width - 1))}`);
    this.shown = true;
  }

  /** Clears the live line before the summary is printed. */
  end(): void {
    if (this.mode === "tty" && this.shown) this.write("\r\x1b[K");
  }
}
