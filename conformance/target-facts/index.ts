export * from "./target-facts.ts";
export { discoverTargetFacts, factsAsProfile, missingFacts, FACT_EXAMPLES, type DiscoverInput, type MissingFact } from "./discover-facts.ts";
export { loadTargetProfile, parseTargetProfile, TARGET_PROFILE_SCHEMA, type TargetProfile } from "./target-profile.ts";
export { readOpenApi, OPENAPI_LOCATIONS } from "./openapi-facts.ts";
export { WELL_KNOWN_IMAGE_MODELS } from "./probe-facts.ts";
export { listOf, readList, nextPage, linkNext, type ListRead } from "./read-list.ts";
export { factsView, type FactUse } from "./facts-view.ts";
export { podActionRequest, podDeleteRequest, podListRequest, actionInPath, actionAsDesiredStatus, inexpressibleActions, DESIRED_STATUS } from "./fact-requests.ts";
export { readNetworkVolumes, type ListedVolume, type VolumeRead } from "./read-volumes.ts";
