/**
 * Turns schema issues into rule violations. Each validator routes an issue to the rule it
 * breaks by keyword and path (the first route that matches wins; the last is a catch-all), and
 * every issue becomes a sentence naming the field, what was wrong and what to send instead.
 */
import type { SchemaIssue } from "../schemas/index.ts";
import type { RuleId } from "../rules/index.ts";
import { describeValue, fieldLabel, fieldShape } from "./field-label.ts";
import { fieldHint } from "./field-hints.ts";
import type { Violation } from "./violation.ts";

export interface IssueRoute {
  /** The JSON Schema keyword, or any when absent. */
  readonly keyword?: string;
  /** Matched against the issue's pointer, or any when absent. */
  readonly path?: RegExp;
  readonly ruleId: RuleId;
}

export interface MessageOptions {
  /** What the body as a whole should look like, for an issue at the root. */
  readonly rootHint: string;
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: "a string",
  integer: "a whole number",
  number: "a number",
  boolean: "true or false",
  object: "a JSON object",
  array: "an array",
  null: "null",
};

function typeWords(type: unknown): string {
  const list = Array.isArray(type) ? type : [type];
  return list.map((t) => TYPE_WORDS[String(t)] ?? String(t)).join(" or ");
}

/** "the request body" starts a sentence as "The request body"; a field name keeps its case. */
function sentenceStart(label: string): string {
  return label.startsWith("the ") ? `T${label.slice(1)}` : label;
}

function allowedProperties(issue: SchemaIssue): string {
  const properties = issue.parentSchema?.properties;
  const names = typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
  return names.length > 0 ? `send only ${names.join(", ")}` : "remove it";
}

/** The message for one issue. */
export function issueMessage(issue: SchemaIssue, options: MessageOptions): string {
  const label = fieldLabel(issue.path);
  const Label = sentenceStart(label);
  const hint = issue.path === "" ? options.rootHint : fieldHint(fieldShape(issue.path));
  const p = issue.params;
  switch (issue.keyword) {
    case "required":
      return `${Label} is missing; send ${hint}.`;
    case "additionalProperties": {
      const parent = fieldLabel(issue.path.slice(0, issue.path.lastIndexOf("/")));
      const name = String(p.additionalProperty);
      return `${sentenceStart(parent)} does not accept the property ${JSON.stringify(name)}; remove it and ${allowedProperties(issue)}.`;
    }
    case "type":
      return `${Label} must be ${typeWords(p.type)}, not ${describeValue(issue.data)}; send ${hint}.`;
    case "minimum":
    case "exclusiveMinimum":
      return `${Label} is ${describeValue(issue.data)}, below the minimum of ${String(p.limit)}; send ${hint}.`;
    case "maximum":
    case "exclusiveMaximum":
      return `${Label} is ${describeValue(issue.data)}, above the maximum of ${String(p.limit)}; send ${hint}.`;
    case "minLength":
      return `${Label} is empty; send ${hint}.`;
    case "maxItems": {
      const n = Array.isArray(issue.data) ? issue.data.length : "too many";
      return `${Label} has ${n} entries but at most ${String(p.limit)} is allowed; send ${hint}.`;
    }
    case "pattern":
    case "format":
      return `${Label} is ${describeValue(issue.data)}, which is not of the required form; send ${hint}.`;
    case "enum": {
      const allowed = Array.isArray(p.allowedValues) ? p.allowedValues.map((v) => JSON.stringify(v)).join(", ") : "";
      return `${Label} is ${describeValue(issue.data)}, which is not one of ${allowed}; send ${hint}.`;
    }
    default:
      return `${Label} ${issue.message}; send ${hint}.`;
  }
}

function route(issue: SchemaIssue, routes: readonly IssueRoute[]): RuleId | undefined {
  for (const r of routes) {
    if (r.keyword !== undefined && r.keyword !== issue.keyword) continue;
    if (r.path !== undefined && !r.path.test(issue.path)) continue;
    return r.ruleId;
  }
  return undefined;
}

/**
 * One violation per issue that names a value. ajv's summaries of a union (`anyOf`, `oneOf`)
 * repeat what the branches said and are dropped when a branch already reported that path.
 */
export function schemaViolations(issues: readonly SchemaIssue[], routes: readonly IssueRoute[], options: MessageOptions): Violation[] {
  const out: Violation[] = [];
  const reported = new Set(issues.filter((i) => i.keyword !== "anyOf" && i.keyword !== "oneOf").map((i) => i.path));
  for (const issue of issues) {
    if ((issue.keyword === "anyOf" || issue.keyword === "oneOf") && reported.has(issue.path)) continue;
    const ruleId = route(issue, routes);
    if (ruleId === undefined) throw new Error(`No rule routes the schema issue ${issue.keyword} at "${issue.path}"; add a catch-all route.`);
    out.push({ ruleId, path: issue.path, message: issueMessage(issue, options) });
  }
  return out;
}
