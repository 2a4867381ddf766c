/**
 * The rule catalog as text, Markdown or JSON: cpsim's own statement of the specification (each
 * rule's id, sentence, section and readings), printed by `cpsim rules`.
 */
import { acceptedStatuses, type AcceptedStatuses } from "./accepted-statuses.ts";
import type { Rule } from "./rule.ts";

export type RulesFormat = "text" | "markdown" | "json";

const SOURCE_FILE = { spec: "the API specification", choices: "the emulator's documented choices" } as const;

function statuses(s: AcceptedStatuses): string {
  return s === "any-4xx" ? "any 4xx" : s.join(" or ");
}

/** For a rule a target keeps by refusing (an error status): the statuses each profile accepts. */
function readings(rule: Rule): { lenient: string; strict: string } | undefined {
  const refuses = rule.status !== undefined || rule.specStatuses || rule.lenientStatuses || rule.strictStatuses;
  if (!refuses) return undefined;
  return { lenient: statuses(acceptedStatuses(rule, "lenient")), strict: statuses(acceptedStatuses(rule, "strict")) };
}

function textEntry(rule: Rule): string {
  const r = readings(rule);
  const lines = [
    `${rule.id}  (${rule.severity}, ${rule.kind}, from ${SOURCE_FILE[rule.source]})`,
    `  ${rule.title}`,
    `  section: ${rule.section}`,
    `  says:    "${rule.spec}"`,
  ];
  if (r) lines.push(`  refusal:  ${r.lenient} (lenient profile), ${r.strict} (strict profile)`);
  return lines.join("\n");
}

/** Escapes the characters that would break a Markdown table cell. */
function cell(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

function markdown(rules: readonly Rule[]): string {
  const lines = [
    "# cpsim rule catalog",
    "",
    `${rules.length} rules. Lenient and strict: for a rule kept by refusing, the statuses each conformance profile accepts.`,
    "",
    "| id | severity | kind | source | section | rule | sentence | lenient | strict |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const rule of rules) {
    const r = readings(rule);
    const cells = [`\`${rule.id}\``, rule.severity, rule.kind, rule.source, rule.section, rule.title, rule.spec, r?.lenient ?? "", r?.strict ?? ""];
    lines.push(`| ${cells.map(cell).join(" | ")} |`);
  }
  return lines.join("\n") + "\n";
}

/** Renders `rules` in `format`; JSON is one array of the rules as they are defined, with their readings. */
export function renderRules(rules: readonly Rule[], format: RulesFormat): string {
  switch (format) {
    case "json":
      return JSON.stringify(rules.map((rule) => ({ ...rule, readings: readings(rule) ?? null }))) + "\n";
    case "markdown":
      return markdown(rules);
    case "text":
      return rules.map(textEntry).join("\n\n") + `\n\n${rules.length} rules\n`;
  }
}
