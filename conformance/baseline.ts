/**
 * The CI regression gate: compare a run with an earlier report.json. A rule that failed there
 * (or was already known there) and fails again is `known`; only failures the baseline did not
 * have fail the run. A baseline that cannot be read, or is not a report.json, is a
 * configuration error (exit 2) saying which, never silently an empty baseline.
 */
import { readFile } from "node:fs/promises";
import type { RuleResult } from "../reports/conformance-report.ts";
import { ConformConfigError } from "./errors.ts";

export interface Baseline {
  readonly file: string;
  /** Ids of the rules that failed (or were known) in the baseline. */
  readonly failing: ReadonlySet<string>;
}

const STATUSES = new Set(["pass", "fail", "skip", "known"]);

function invalid(file: string, why: string): ConformConfigError {
  return new ConformConfigError("CPSIM_ERR_BASELINE", `--baseline ${file} is not a cpsim report.json: ${why}`);
}

/** Validates the parsed content of a report.json and takes its failing rules. */
export function baselineFrom(file: string, data: unknown): Baseline {
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw invalid(file, "it is not a JSON object");
  const rules = (data as { rules?: unknown }).rules;
  if (!Array.isArray(rules)) throw invalid(file, 'it has no "rules" array');
  const failing = new Set<string>();
  rules.forEach((r: unknown, i) => {
    const rule = r as { id?: unknown; status?: unknown };
    if (typeof rule !== "object" || rule === null || typeof rule.id !== "string") throw invalid(file, `rules[${i}] has no string "id"`);
    if (typeof rule.status !== "string" || !STATUSES.has(rule.status)) {
      throw invalid(file, `rules[${i}] ("${rule.id}") has status ${JSON.stringify(rule.status)}, not pass, fail, skip or known`);
    }
    if (rule.status === "fail" || rule.status === "known") failing.add(rule.id);
  });
  return { file, failing };
}

export async function loadBaseline(file: string): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new ConformConfigError("CPSIM_ERR_BASELINE", `--baseline ${file} cannot be read: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw invalid(file, `it is not JSON (${(err as Error).message})`);
  }
  return baselineFrom(file, data);
}

/** Marks the failures the baseline already had as known. */
export function applyBaseline(rules: readonly RuleResult[], baseline: Baseline | undefined): RuleResult[] {
  if (!baseline) return [...rules];
  return rules.map((r) =>
    r.status === "fail" && baseline.failing.has(r.id)
      ? { ...r, status: "known" as const, reason: `failed in the baseline (${baseline.file}) too` }
      : r,
  );
}

/** The ids whose failure is new: what makes the run fail. */
export function newFailures(rules: readonly RuleResult[]): string[] {
  // A warning marks a rule the spec leaves unsettled: reported, but it does not fail the run.
  return rules.filter((r) => r.status === "fail" && r.severity !== "warning").map((r) => r.id);
}
