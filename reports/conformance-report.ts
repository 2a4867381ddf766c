/**
 * The data of one conformance run, as plain values. Every writer in reports/ takes this and
 * nothing else, so reports/ imports nothing of the rest of cpsim: conformance/ builds it, and
 * an earlier run's report.json read back from disk has exactly this shape.
 */

export type RuleStatus = "pass" | "fail" | "skip" | "known";

/** As the rule catalog names it (for example "error" or "warning"); reports only display it. */
export type Severity = string;

/**
 * A request body as recorded. Small bodies are kept whole; large ones as runs of one repeated
 * character between literal text, so a reproduction can regenerate megabytes with a pipeline
 * instead of inlining them; a body that cannot be described either way keeps only its head.
 */
export type RecordedBody =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "runs"; readonly size: number; readonly parts: readonly BodyPart[] }
  | { readonly kind: "truncated"; readonly size: number; readonly head: string };

export type BodyPart = { readonly text: string } | { readonly char: string; readonly count: number };

/** A request as sent, with every key replaced by a `${CPSIM_...}` placeholder. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: RecordedBody;
  /** Milliseconds since the start of the run, for ordering a sequence. */
  readonly at?: number;
}

export interface RecordedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body text, cut at the recording limit (see `truncated`). */
  readonly body: string;
  readonly size?: number;
  readonly truncated?: boolean;
  readonly durationMs?: number;
}

export interface ReportFailure {
  readonly ruleId: string;
  /** Whose the failure is, when judged on traffic (`cpsim proxy`): the target's answer or the client's request. */
  readonly side?: "target" | "client";
  readonly title: string;
  readonly severity: Severity;
  /** The sentence of the specification the rule enforces. */
  readonly spec: string;
  readonly evidence: {
    readonly request: RecordedRequest;
    readonly expected: string;
    readonly got: { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string };
    /** The requests that led to the failing one, in order, when it was part of a sequence. */
    readonly sequence?: readonly RecordedRequest[];
  };
  readonly reproduction: {
    readonly seed: number;
    /** fast-check's counterexample path, when the failure came from a property. */
    readonly path?: string;
    /** The cpsim command line that replays it. */
    readonly command?: string;
    /** A bash script that replays the request(s) by itself and shows the failure. */
    readonly curl: string;
  };
}

export interface RuleResult {
  readonly id: string;
  readonly title: string;
  readonly spec: string;
  readonly section?: string;
  readonly severity: Severity;
  readonly status: RuleStatus;
  /** Why a rule was skipped or marked known; absent when it passed or failed plainly. */
  readonly reason?: string;
  readonly durationMs: number;
  readonly requests?: number;
  readonly failures: readonly ReportFailure[];
  /** The rule's lenient reading: what the default profile accepts where the spec is silent. */
  readonly lenient?: string;
}

/** One fact of "how this target was read": a path or shape the spec does not show, and where it came from. */
export interface TargetFactRecord {
  /** The --target-profile key that states it. */
  readonly key: string;
  /** What the fact is, in words. */
  readonly meaning: string;
  readonly value: unknown;
  /** profile, openapi, probe or default. */
  readonly source: string;
  readonly evidence: string;
  /** The judged rules that used it. */
  readonly unlocked: readonly string[];
}

/** A timeout or connection error: about the target, never a verdict on a rule. */
export interface TargetErrorRecord {
  readonly ruleId?: string;
  readonly code: string;
  readonly message: string;
  readonly request?: RecordedRequest;
}

export interface TransitionCoverage {
  /** The state machine: "pod" or "job". */
  readonly machine: string;
  readonly from: string;
  readonly to: string;
  readonly exercised: boolean;
}

export interface Coverage {
  /**
   * checked: rules judged (passed, failed or known); total: the catalog's rules; selected: those
   * --only/--skip chose among the rules conform judges (not the client.* rules, which only the proxy
   * judges; absent in reports of older versions: all of them); minCoverage: the
   * floor of judged rules, in percent of `selected`, below which the run fails.
   */
  readonly rules: {
    readonly checked: number;
    readonly total: number;
    readonly unchecked: readonly string[];
    readonly selected?: number;
    readonly minCoverage?: number;
  };
  readonly transitions: readonly TransitionCoverage[];
}

export interface Summary {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  /** Of `skipped`, those whose set-up did not come about on this target in this run (reason `set-up not reached: ...`), counted apart. */
  readonly setupNotReached: number;
  readonly known: number;
  readonly targetErrors: number;
}

/** The rules that decided the run's length: the chain that ended last (conformance/critical-path.ts). */
export interface CriticalPath {
  /** The lane that ended last, and its area (the first part of its rules' ids). */
  readonly lane: string;
  readonly area: string;
  /** When it ended, in ms from the first rule's start. */
  readonly endedAtMs: number;
  /** The rules on its path, in order: each started when the one before it ended. */
  readonly rules: readonly { readonly id: string; readonly lane: string; readonly startMs: number; readonly durationMs: number }[];
}

/** The run's measured pace of the target and its time bounds (conformance/target-timing.ts's TargetTiming). */
export interface TimingRecord {
  /** Absent when the measurement failed: then every bound is the given one. */
  readonly measured?: {
    /** The median of the small reads' times, in ms. */
    readonly roundTripMs: number;
    /** The upload's whole time, in ms (at least 1), its round trip included; absent when the upload said nothing of the rate (`uploadNotMeasured`). */
    readonly uploadMs?: number;
    readonly uploadBytes?: number;
    /** Bytes per second the target took the upload at. */
    readonly uploadBytesPerS?: number;
    /** Why the upload gave no rate: no full-access key, or an answer given before the body was read. */
    readonly uploadNotMeasured?: string;
  };
  /** Why nothing was measured. */
  readonly notMeasured?: string;
  /** --timeout-ms (or its default): the floor. */
  readonly givenTimeoutMs: number;
  /** The request timeout the run uses. */
  readonly timeoutMs: number;
  /** The factor on the job properties' time bound (1: as given). */
  readonly propertyScale: number;
  /** Against a real-time target whose full-access key's quota makes the run wait: the estimate the bounds were sized to (conformance/quota-sizing.ts). */
  readonly rateLimit?: { readonly window: string; readonly requests: number; readonly waitS: number; readonly budgetS: number };
  /** The measured time of the largest request the suite sends, in ms. */
  readonly largestRequestMs?: number;
  /** Whether the timeout or the property scale was held down by its cap. */
  readonly capped: boolean;
}

/** How the rules were run beside each other: one line a lane (conformance/schedule.ts). */
export type ScheduleLines = readonly string[];

export interface ConformanceReport {
  readonly tool: { readonly name: string; readonly version: string };
  readonly target: string;
  readonly serverlessUrl: string;
  readonly seed: number;
  readonly profile: string;
  readonly startedAt: string;
  readonly wallTimeMs: number;
  readonly requests: number;
  /** The file the run was compared with, when `--baseline` was given. */
  readonly baseline?: string;
  readonly rules: readonly RuleResult[];
  readonly coverage: Coverage;
  readonly summary: Summary;
  readonly targetErrors: readonly TargetErrorRecord[];
  /** How this target was read (absent in reports of earlier versions). */
  readonly targetFacts?: readonly TargetFactRecord[];
  /** Which rules ran beside which, and why a window was exclusive (absent in reports of earlier versions). */
  readonly schedule?: ScheduleLines;
  /** The rules that decided the run's length (absent in earlier reports, and when no rule ran). */
  readonly criticalPath?: CriticalPath;
  /** What the run measured of the target (round trip, upload rate) and the time bounds it derived (conformance/target-timing.ts; absent in earlier reports). */
  readonly timing?: TimingRecord;
  /** `cpsim proxy`: the client findings grouped by client (User-Agent), most findings first. */
  readonly clients?: readonly ClientFindingsRecord[];
  /** `cpsim proxy --shadow`: where a second implementation answered the same requests otherwise, on what the spec fixes. */
  readonly shadow?: ShadowRecord;
}

/** One request the target and the shadow answered differently on a rule: what each answer did with it. */
export interface ShadowDifferenceRecord {
  /** The exchange's number in the proxy's traffic. */
  readonly exchange: number;
  readonly method: string;
  /** Path and query as the client sent them (keys redacted). */
  readonly path: string;
  /** The rule id, or `shadow.outcome` (one accepted what the other refused). */
  readonly rule: string;
  readonly targetStatus: number;
  readonly shadowStatus: number;
  /** "keeps it", or what the answer broke. */
  readonly target: string;
  readonly shadow: string;
}

/** Shadow mode's account: what was sent, compared, skipped and dropped, and the differences. */
export interface ShadowRecord {
  /** The shadow's base URL (the embedded emulator's, said so). */
  readonly shadow: string;
  readonly writes: boolean;
  /** Exchanges sent to the shadow, answered by it and compared, and those with at least one difference. */
  readonly sent: number;
  readonly compared: number;
  readonly differing: number;
  /** Exchanges not sent: writes without --shadow-writes, an object the shadow never saw, a body too large to copy, no answer from the target. */
  readonly skipped: { readonly writes: number; readonly unknownObject: number; readonly largeBody: number; readonly noTargetAnswer: number };
  /** Exchanges given up: the queue was full, the shadow too slow or failing, the proxy stopping. */
  readonly dropped: { readonly queueFull: number; readonly timeout: number; readonly error: number; readonly atStop: number };
  /** Each rule that differed, how often, and its first difference. */
  readonly rules: readonly { readonly id: string; readonly count: number; readonly first: ShadowDifferenceRecord }[];
  /** The first differences (up to a bound), in the order found. */
  readonly differences: readonly ShadowDifferenceRecord[];
}

/** One client of the proxy's traffic (by User-Agent) and the rules its requests broke. */
export interface ClientFindingsRecord {
  readonly userAgent: string;
  readonly exchanges: number;
  readonly findings: number;
  /** Each rule broken, with how often, the first finding's sentence and its exchange number. */
  readonly rules: readonly { readonly id: string; readonly count: number; readonly example: string; readonly exchange: number }[];
}

/**
 * How a skip reason starts when the rule's set-up did not come about on this target in this run
 * (a job kept queued, a job running with another queued): no statement about the target, and
 * counted apart from the skips a run's options or keys decide.
 */
export const SETUP_NOT_REACHED = "set-up not reached";

export function isSetupSkip(r: Pick<RuleResult, "status" | "reason">): boolean {
  return r.status === "skip" && (r.reason ?? "").startsWith(SETUP_NOT_REACHED);
}

/** Counts the rule statuses; the writers and the exit code all read the same numbers. */
export function summarize(rules: readonly RuleResult[], targetErrors = 0): Summary {
  const count = (s: RuleStatus) => rules.filter((r) => r.status === s).length;
  return { passed: count("pass"), failed: count("fail"), skipped: count("skip"), setupNotReached: rules.filter(isSetupSkip).length, known: count("known"), targetErrors };
}
