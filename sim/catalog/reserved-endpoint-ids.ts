/**
 * Path segments an endpoint id or model slug must never take. The emulator serves the REST
 * host and the job-endpoint host on one port, so `/v2/<segment>/...` must stay unambiguous
 * (choices.md, "Job endpoints"). Besides the REST groups choices.md names, the list holds the
 * platform's legacy spellings the router also serves (`networkvolumes`,
 * `containerregistryauth`), the paths newer official clients call (`serverless`, `account`) and
 * the emulator's own routes (`openapi.json`, `_sim`). Ids are
 * lowercase by schema, so no case variant can slip past. sim/api's router should route by this
 * same list so that no catalog endpoint is ever unreachable.
 */
export const RESERVED_ENDPOINT_IDS: readonly string[] = Object.freeze([
  "pods",
  "catalog",
  "templates",
  "network-volumes",
  "networkvolumes",
  "registries",
  "containerregistryauth",
  "billing",
  "endpoints",
  "serverless",
  "account",
  "graphql",
  "openapi.json",
  "_sim",
  "sandboxes",
]);
