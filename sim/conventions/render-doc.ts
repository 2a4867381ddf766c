/**
 * The dimensions of the open-choice space as the Markdown docs/conventions.md holds between its
 * `conventions:start` and `conventions:end` markers (a test compares the two).
 */
import { posix } from "node:path";
import { DIMENSIONS } from "./dimensions.ts";

/** The page the sources cite, as a link from docs/conventions.md beside it. */
const CHOICES_PAGE = "docs/choices.md";
const choicesLink = `[${posix.basename(CHOICES_PAGE)}](${posix.relative("docs", CHOICES_PAGE)})`;
const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ").replaceAll(CHOICES_PAGE, choicesLink);

export function renderConventionsDoc(): string {
  const out: string[] = [`${DIMENSIONS.length} dimensions; the first value of each is the emulator's (\`--conventions emulator\`).`, ""];
  for (const d of DIMENSIONS) {
    out.push(`### \`${d.id}\`: ${d.title}`, "", `Left open by: ${d.spec}`, "", "| value | the target |", "|---|---|");
    for (const v of d.values) out.push(`| \`${JSON.stringify(v.value)}\` | ${cell(v.means)} |`);
    out.push("");
  }
  return out.join("\n");
}
