/**
 * The dimensions of the open-choice space as the Markdown docs/conventions.md holds between its
 * `conventions:start` and `conventions:end` markers (a test compares the two).
 */
import { DIMENSIONS } from "./dimensions.ts";

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function renderConventionsDoc(): string {
  const out: string[] = [`${DIMENSIONS.length} dimensions; the first value of each is the emulator's (\`--conventions emulator\`).`, ""];
  for (const d of DIMENSIONS) {
    out.push(`### \`${d.id}\`: ${d.title}`, "", `Left open by: ${d.spec}`, "", "| value | the target |", "|---|---|");
    for (const v of d.values) out.push(`| \`${JSON.stringify(v.value)}\` | ${cell(v.means)} |`);
    out.push("");
  }
  return out.join("\n");
}
