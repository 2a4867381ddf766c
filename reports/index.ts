// The public surface of reports/: plain report data in, text and files out.
export type {
  BodyPart,
  ConformanceReport,
  Coverage,
  RecordedBody,
  RecordedRequest,
  RecordedResponse,
  ReportFailure,
  RuleResult,
  RuleStatus,
  Severity,
  Summary,
  TargetErrorRecord,
  TransitionCoverage,
} from "./conformance-report.ts";
export { summarize } from "./conformance-report.ts";
export { escapeHtml, escapeXml } from "./escape.ts";
export { describeBody, failureText } from "./failure-text.ts";
export { formatDuration, requestsPerSecond } from "./format.ts";
export { renderHtmlReport } from "./html-report.ts";
export { renderJsonReport } from "./json-report.ts";
export { renderJUnit } from "./junit.ts";
export { renderSummaryTable, type SummaryTableOptions } from "./summary-table.ts";
export { renderStepSummary, renderStepSummaryError } from "./step-summary.ts";
export { verdict, judgedCounts, type Verdict, type VerdictKind } from "./verdict.ts";
export { renderTextTable, truncate, type TextColumn } from "./text-table.ts";
export { defaultReportDir, writeConformanceReports, type WriteReportsOptions, type WrittenReports } from "./write-reports.ts";
export { outputDirProblem, outputDirRefusal, outputFileProblem, outputFileRefusal } from "./output-dir.ts";
export type { LoadCheck, LoadComparison, LoadLatency, LoadRegression, LoadReport, LoadScenarioResult, LoadSecond, LoadThreshold } from "./load-report.ts";
export { formatBytes, formatMicros, statusClasses } from "./load-report.ts";
export { openLoadMetrics, parseOutSpec, LOAD_METRICS_CSV_COLUMNS, type LoadMetricsSink, type OutSpec } from "./load-metrics.ts";
export { renderLoadHtml } from "./load-html.ts";
export { renderLoadTable } from "./load-table.ts";
export { renderLoadJson, writeLoadReports } from "./write-load-reports.ts";
export { vegaLiteToSvg } from "./vega-svg.ts";
export type {
  PlanCheck,
  PlanDistEstimate,
  PlanEndpointConfig,
  PlanEndpointFigures,
  PlanEstimate,
  PlanFind,
  PlanPoint,
  PlanReport,
} from "./plan-report.ts";
export { renderPlanSummary } from "./plan-summary.ts";
export { renderPlanCsv } from "./plan-csv.ts";
export { renderPlanHtml } from "./plan-html.ts";
export { renderPlanJson, writePlanReports, type WrittenPlanReports } from "./write-plan-reports.ts";
export type { DefectResult, DefectVerdict, FamilyScore, MutationReport, MutationSummary } from "./mutation-report.ts";
export { familyFigureLine, judgedEscapes, legalEscapes, mutationFigureLine, mutationPassed, summarizeMutation, verdictOf } from "./mutation-report.ts";
export { renderMutationTable } from "./mutation-table.ts";
export { renderMutationHtml } from "./mutation-html.ts";
export { writeMutationReports, type WrittenMutationReports } from "./write-mutation-reports.ts";
