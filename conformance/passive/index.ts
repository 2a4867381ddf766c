// The passive checks: one module judges an exchange, whoever sent it (conform's own requests, or a client's through `cpsim proxy`).
export { parseJson, seenFromRecorded, type AnswerView, type SeenAnswer, type SeenExchange, type SeenRequest, type Surface } from "./answer.ts";
export { classify, describeOperation, operationOf, type JobOp, type Operation } from "./classify.ts";
export { jsonIssue, mediaType, problemFormatProblem, problemIssues, SPEC_TITLES, statusMatchesProblem, titleFits, titleProblem, type Profile } from "./error-body.ts";
export { policyWindowProblems, presenceProblem, structuredFieldProblems, wellFormedProblems } from "./ratelimit-headers.ts";
export { exchangeChecks } from "./exchange-checks.ts";
export { requestChecks, requestViolations } from "./request-checks.ts";
export { FINAL_JOB_STATES } from "./follow-jobs.ts";
export type { CheckInput, Judgement, PassiveCheck, Side } from "./judgement.ts";
export { defaultPassiveOptions, judgeableRules, passiveChecks, PassiveJudge, type Finding, type PassiveOptions, type RuleTally } from "./passive-judge.ts";
