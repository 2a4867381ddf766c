// The rules about the rate-limit headers of one answer live in the passive module, which conform and proxy share.
export { policyWindowProblems, presenceProblem, SPEC_WINDOWS, structuredFieldProblems, wellFormedProblems } from "../../../passive/ratelimit-headers.ts";
