// Pure request validators built on the record schemas and the rule catalog.
export * from "./violation.ts";
export { validateCreatePod, DEFAULT_CONTAINER_DISK_GB, isPowerOfTwo } from "./validate-create-pod.ts";
export type { CreatePodContext, NormalizedCreatePod } from "./validate-create-pod.ts";
export { validateUpdatePod } from "./validate-update-pod.ts";
export type { NormalizedUpdatePod, UpdatePodTarget } from "./validate-update-pod.ts";
export { validatePodAction } from "./validate-pod-action.ts";
export { validateJobSubmit, PAYLOAD_LIMITS, MEGABYTE } from "./validate-job-submit.ts";
export type { JobSubmitOptions, NormalizedJobSubmit } from "./validate-job-submit.ts";
export { validateWaitQuery, WAIT_RANGE } from "./validate-wait-query.ts";
export { validateTtlQuery } from "./validate-ttl-query.ts";
export { fieldLabel } from "./field-label.ts";
// Generators of valid requests and rule breakers (fast-check), for tests and the conformance suite.
export * from "./arbitraries.ts";
