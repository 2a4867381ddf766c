/**
 * The HTML section (with its own line end, so an absent section leaves the page as it was) "How this target was read": each fact the suite needed where the spec shows
 * no path or shape, where it came from, and the rules it unlocked.
 */
import type { TargetFactRecord } from "./conformance-report.ts";
import { escapeHtml as h } from "./escape.ts";

export function targetFactsSection(facts: readonly TargetFactRecord[] | undefined): string {
  if (!facts || facts.length === 0) return "";
  const rows = facts
    .map(
      (f) =>
        `<tr><td class="id"><code>${h(f.key)}</code></td><td>${h(f.meaning)}</td><td><code>${h(JSON.stringify(f.value))}</code></td>` +
        `<td class="src-${h(f.source)}">${h(f.source)}</td><td>${h(f.evidence)}</td><td>${f.unlocked.length ? f.unlocked.map((r) => `<code>${h(r)}</code>`).join(" ") : "none"}</td></tr>`,
    )
    .join("");
  return `<section id="target-facts"><h2>How this target was read</h2><p>Where the specification shows no path or shape, the suite used these facts of the target (state any of them in a <code>--target-profile</code> file; <code>cpsim conform --discover</code> prints one).</p><table><thead><tr><th>profile key</th><th>fact</th><th>value</th><th>source</th><th>how found</th><th>rules unlocked</th></tr></thead><tbody>${rows}</tbody></table></section>\n`;
}
