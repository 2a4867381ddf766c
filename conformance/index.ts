// The public surface of conformance/: the suite's library API and its extension points.
export { conform, type ConformDeps, type ConformResult, type EmbeddedTarget, type Output } from "./conform.ts";
export { run, spec, optionsFromFlags } from "./cli.ts";
export { defaultOptions, EMBEDDED_RUNS, REALTIME_RUNS, resolveOptions, reproduceCommand, type ConformOptions, type Profile, type ResolvedOptions } from "./options.ts";
export { CheckRegistry, checks, registerCheck, type RegisterOptions } from "./check-registry.ts";
export type { CheckContext, CheckDefinition, CheckFn, CheckGroup, CheckNeeds, CheckOutcome, FailureInput, Oracle } from "./check.ts";
export { platformOracle } from "./oracle/platform-oracle.ts";
export { ShadowPlatform } from "./oracle/shadow-platform.ts";
export { counterValue, type CounterBound, type HealthBody, type HealthJob, type HealthOracle } from "./oracle/health-oracle.ts";
export { describeOutcomes, nextAfter, outcomesFor, statusMatches, type JobCommand, type JobOracle, type Outcome, type PodOperation, type PodOracle, type StatusPattern } from "./oracle/oracle.ts";
export { planLanes, type Lane, type Plan } from "./schedule.ts";
export { makeFailure, type Failure, type FailureEvidence, type FailureSource } from "./failure.ts";
export { toCurl, type CurlCapture, type CurlOptions } from "./curl.ts";
export { Client, type Auth, type ClientOptions, type ClientResponse, type ClientStats, type RequestSpec } from "./client.ts";
export { defaultPacing, type PacingOptions } from "./rate-limit-pacer.ts";
export type { Exchange } from "./recorder.ts";
export { ConformConfigError, TargetError, CheckRegistryError, type TargetErrorCode } from "./errors.ts";
export { parseList, serializeList, param, StructuredFieldError, type BareItem, type Item, type InnerList, type ListMember, type Parameters } from "./structured-fields.ts";
export { parseRateLimit, parseRateLimitPolicy, type RateLimitPolicy, type RateLimitWindow } from "./rate-limit-headers.ts";
export { applyBaseline, baselineFrom, loadBaseline, newFailures, type Baseline } from "./baseline.ts";
export { matchesGlob, selectRules } from "./rule-glob.ts";
export { catalogOf, specCatalog, type Rule, type RuleCatalog } from "./rule-catalog.ts";
export { ruleSeed } from "./seeds.ts";
export { KEY_ENV, KEY_FLAG, type KeyRole, type Keys } from "./keys.ts";
export { SPEC_TRANSITIONS } from "./spec-transitions.ts";
export { discoverTarget, type DiscoverResult } from "./discover-target.ts";
export {
  discoverTargetFacts, factsAsProfile, loadTargetProfile, parseTargetProfile, missingFact, TARGET_PROFILE_SCHEMA, FACT_KEYS, DEFAULT_FACTS,
  type Fact, type FactKey, type FactSource, type FactValues, type TargetFacts, type TargetProfile, type VolumeSource,
} from "./target-facts/index.ts";
// The target's catalog and the createPod body most likely accepted, read the way conform reads them (cpsim load builds its pod bodies from these).
export { targetCatalog, type TargetCatalog, type CatalogReadOptions } from "./checks/pods/create-target-catalog.ts";
export { safestBody, noBodyReason } from "./checks/pods/create-valid-body.ts";
export * from "./proxy/index.ts";
export {
  PassiveJudge, passiveChecks, judgeableRules, defaultPassiveOptions, seenFromRecorded, classify, requestViolations,
  type Finding, type PassiveOptions, type PassiveCheck, type Judgement, type Side, type SeenExchange, type AnswerView, type Operation,
} from "./passive/index.ts";
