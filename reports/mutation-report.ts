/**
 * The mutation report as plain data: the clean run, then each defect with the rules that failed
 * against it and its verdict. `cpsim mutation` builds it; the writers here only read it.
 */

/** caught-precisely: the rule the defect breaks failed; caught: other rules failed only;
 * escaped: no rule failed; error: the run did not finish (timeout, crash), so nothing is known. */
export type DefectVerdict = "caught-precisely" | "caught" | "escaped" | "error";

export interface DefectResult {
  readonly name: string;
  readonly area: string;
  /** The rule the defect breaks. */
  readonly rule: string;
  readonly does: string;
  /** The rule's spec sentence. */
  readonly spec: string;
  readonly verdict: DefectVerdict;
  /** Rules that failed against the defect, in run order. */
  readonly failing: readonly string[];
  /**
   * What ran against the defect: `rule`, only the check of the rule it breaks, which failed (the
   * run stopped at that precise catch, so other rules that would also catch it are not listed);
   * `suite`, the whole suite (that check alone did not fail it, or the run was --complete).
   */
  readonly scope: "rule" | "suite";
  /** Status of the broken rule itself in that run (pass, fail, skip…), or absent when it did not run. */
  readonly ruleStatus?: string;
  readonly wallTimeMs: number;
  readonly error?: string;
  /**
   * On an escape under the lenient profile: why a correct service may do what the defect does
   * there (the defect's `legalUnderLenient`: the spec does not fix what it changes), so it is not
   * observable as a violation and is no miss of the suite.
   */
  readonly legal?: string;
}

export interface MutationSummary {
  readonly defects: number;
  readonly caught: number;
  readonly precise: number;
  readonly escaped: number;
  readonly errors: number;
  readonly cleanFailures: number;
}

export interface MutationReport {
  readonly tool: { readonly name: string; readonly version: string };
  readonly seed: number;
  readonly profile: string;
  readonly workers: number;
  /** Whether every defect met the whole suite (--complete) rather than stopping at its rule's own catch. */
  readonly complete: boolean;
  readonly startedAt: string;
  readonly wallTimeMs: number;
  /**
   * The clean emulator: the whole suite, plus each broken rule's check alone (a precise catch by
   * a check run alone counts only when that check passes alone on the clean emulator too).
   */
  readonly clean: { readonly failing: readonly string[]; readonly wallTimeMs: number; readonly error?: string };
  readonly defects: readonly DefectResult[];
  /** Catalog rules no defect breaks: what the matrix says nothing about. */
  readonly unexercisedRules: readonly { readonly id: string; readonly title: string }[];
  readonly summary: MutationSummary;
  /**
   * The same defects against target families (`--family N`): the emulator with the conventions
   * the spec leaves open drawn from N, judged by the lenient suite. A clean failure on a family is
   * a bug of the suite; an escape says what the suite cannot see on a target unlike its twin.
   */
  readonly families?: readonly FamilyScore[];
}

export interface FamilyScore {
  readonly family: number;
  /** The family's drawn conventions, in words. */
  readonly conventions: string;
  readonly clean: { readonly failing: readonly string[]; readonly wallTimeMs: number; readonly error?: string };
  readonly defects: readonly DefectResult[];
  readonly summary: MutationSummary;
}

/**
 * The escapes whose broken rule was judged on the run and passed: the defect was observable there
 * (its rule neither skipped, as a rule of choices.md or a strict-only one is under the lenient
 * profile, nor left without a set-up, and what it does not legal under that profile) and the rule
 * did not see it: the real misses. The other escapes are defects those conventions and that
 * profile do not make observable.
 */
export function judgedEscapes(defects: readonly DefectResult[]): DefectResult[] {
  return defects.filter((d) => d.verdict === "escaped" && d.ruleStatus === "pass" && d.legal === undefined);
}

/** The escapes that are legal under the lenient profile, each with its reason (`legal`). */
export function legalEscapes(defects: readonly DefectResult[]): DefectResult[] {
  return defects.filter((d) => d.verdict === "escaped" && d.legal !== undefined);
}

/**
 * One line per seed of the open-choice space: `mutation_conventions=N defects=D caught=C
 * precise=P escaped=E clean_failures=F judged_escaped=J legal_escaped=L`, J the escapes whose rule
 * was judged and passed (judgedEscapes: the misses), L those a correct service may show under the
 * lenient profile (legalEscapes).
 */
export function familyFigureLine(f: FamilyScore): string {
  const s = f.summary;
  return `mutation_conventions=${f.family} defects=${s.defects} caught=${s.caught} precise=${s.precise} escaped=${s.escaped} clean_failures=${s.cleanFailures} judged_escaped=${judgedEscapes(f.defects).length} legal_escaped=${legalEscapes(f.defects).length}`;
}

export function verdictOf(rule: string, failing: readonly string[]): DefectVerdict {
  if (failing.includes(rule)) return "caught-precisely";
  return failing.length > 0 ? "caught" : "escaped";
}

export function summarizeMutation(defects: readonly DefectResult[], cleanFailures: number): MutationSummary {
  const count = (v: DefectVerdict) => defects.filter((d) => d.verdict === v).length;
  const precise = count("caught-precisely");
  return {
    defects: defects.length,
    caught: precise + count("caught"),
    precise,
    escaped: count("escaped"),
    errors: count("error"),
    cleanFailures,
  };
}

/** The figure line `npm run mutation` ends with. */
export function mutationFigureLine(report: MutationReport): string {
  const s = report.summary;
  return `mutation_defects=${s.defects} caught=${s.caught} precise=${s.precise} escaped=${s.escaped} clean_failures=${s.cleanFailures} wall_s=${(report.wallTimeMs / 1000).toFixed(1)}`;
}

/** A run passes when the clean emulator shows no failure and every defect is caught, or escaped as legal under the lenient profile. */
export function mutationPassed(report: MutationReport): boolean {
  const s = report.summary;
  return s.cleanFailures === 0 && report.clean.error === undefined && s.escaped === legalEscapes(report.defects).length && s.errors === 0;
}
