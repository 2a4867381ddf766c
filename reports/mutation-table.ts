/** The terminal view of a mutation run: one row per defect with the rules that caught it, then the score. */
import { renderTextTable } from "./text-table.ts";
import type { DefectVerdict, MutationReport } from "./mutation-report.ts";

const LABEL: Readonly<Record<DefectVerdict, string>> = { "caught-precisely": "PRECISE", caught: "CAUGHT", escaped: "ESCAPED", error: "ERROR" };

/** How many unbroken rules the terminal names before it counts the rest. */
const UNBROKEN_NAMED = 12;

function pct(n: number, of: number): string {
  return of === 0 ? "-" : `${((100 * n) / of).toFixed(1)}%`;
}

export function renderMutationTable(report: MutationReport, width = 100): string {
  const rows = report.defects.map((d) => [
    d.name,
    LABEL[d.verdict],
    d.rule,
    d.verdict === "error" ? (d.error ?? "") : d.failing.length ? `${d.failing.join(", ")}${d.scope === "rule" ? " (its check alone)" : ""}` : `(none; ${d.rule} ${d.ruleStatus ?? "not run"}${d.legal ? "; legal under lenient" : ""})`,
  ]);
  const table = renderTextTable(
    [{ header: "defect", flex: true, min: 16 }, { header: "verdict" }, { header: "breaks", flex: true, min: 16 }, { header: "caught by", flex: true, min: 10 }],
    rows,
    width,
  );
  const s = report.summary;
  const lines = [
    table.trimEnd(),
    "",
    `clean run: ${report.clean.error ? `ERROR ${report.clean.error}` : report.clean.failing.length ? `${report.clean.failing.length} failure(s): ${report.clean.failing.join(", ")}` : "no failure"}`,
    ...(report.complete ? [] : ["caught by: a precise catch stops at the check of the rule broken, run alone (--complete runs the whole suite against every defect)"]),
    `score: ${s.caught}/${s.defects} caught (${pct(s.caught, s.defects)}), ${s.precise}/${s.defects} caught precisely (${pct(s.precise, s.defects)}), ${s.escaped} escaped${s.errors ? `, ${s.errors} did not finish` : ""}`,
  ];
  const escaped = report.defects.filter((d) => d.verdict === "escaped");
  if (escaped.length) lines.push(`escaped: ${escaped.map((d) => d.name).join(", ")}`);
  // A run of a few defects (--defect GLOB) leaves most rules unbroken: name a dozen, the rest are in mutation.json.
  const unbroken = report.unexercisedRules.map((r) => r.id);
  const named = unbroken.length > UNBROKEN_NAMED ? `${unbroken.slice(0, UNBROKEN_NAMED).join(", ")} and ${unbroken.length - UNBROKEN_NAMED} more (all in mutation.json)` : unbroken.join(", ");
  lines.push(`rules no defect breaks (${unbroken.length}): ${named || "none"}`);
  return `${lines.join("\n")}\n`;
}
