/**
 * A plain-text table that fits a terminal width. Columns marked `flex` give up width (their
 * cells are cut with an ellipsis) when the natural widths do not fit, never below their minimum;
 * an `optional` one that would shrink below its minimum is dropped rather than shown as noise.
 * A table whose fixed columns alone are wider than the terminal is printed as narrow as it can be.
 */

export interface TextColumn {
  readonly header: string;
  readonly align?: "left" | "right";
  /** May shrink, in order of declaration from the last one, when the table is too wide. */
  readonly flex?: boolean;
  /** The narrowest a flex column may become (default 8). */
  readonly min?: number;
  /** Dropped, rather than cut below `min`, when the table does not fit. */
  readonly optional?: boolean;
}

const GAP = "  ";

/** Cuts `text` to `width` characters, marking the cut with an ellipsis. */
export function truncate(text: string, width: number): string {
  if (text.length <= width) return text;
  if (width <= 1) return text.slice(0, width);
  return `${text.slice(0, width - 1)}…`;
}

/** Cells are single-line: newlines and tabs would break the grid. */
function clean(cell: string): string {
  return cell.replace(/[\r\n\t]+/g, " ");
}

export function renderTextTable(columns: readonly TextColumn[], rows: readonly (readonly string[])[], width: number): string {
  const cells = rows.map((r) => columns.map((_, i) => clean(r[i] ?? "")));
  const natural = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => r[i].length)));
  const widths = [...natural];
  const shown = columns.map(() => true);
  const total = () => widths.reduce((s, w, i) => s + (shown[i] ? w : 0), 0) + GAP.length * (shown.filter(Boolean).length - 1);
  for (let i = columns.length - 1; i >= 0 && total() > width; i--) {
    if (!columns[i].flex) continue;
    const min = columns[i].min ?? 8;
    const excess = total() - width;
    if (widths[i] - excess >= min) widths[i] -= excess;
    else if (columns[i].optional) shown[i] = false;
    else widths[i] = Math.min(widths[i], min);
  }
  const line = (r: readonly string[]) =>
    columns
      .map((c, i) => {
        if (!shown[i]) return undefined;
        const text = truncate(r[i], widths[i]);
        return c.align === "right" ? text.padStart(widths[i]) : text.padEnd(widths[i]);
      })
      .filter((s): s is string => s !== undefined)
      .join(GAP)
      .trimEnd();
  const header = line(columns.map((c) => c.header));
  const body = cells.map(line);
  const rule = "-".repeat(Math.min(width, Math.max(1, header.length, ...body.map((l) => l.length))));
  return [header, rule, ...body].join("\n") + "\n";
}
