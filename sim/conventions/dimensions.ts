/**
 * The open-choice space: every point where the specification is silent or says "not shown" that
 * `cpsim serve --conventions` draws a value for, each with the sentence that leaves it open and the
 * legal values (at least three), the emulator's own first. This one list drives the draw
 * (draw.ts), the layer that answers with the drawn conventions (layer.ts), `cpsim serve
 * --conventions`, `cpsim mutation --conventions`, the suite's tests across the space, and the
 * documentation page docs/conventions.md (rendered from it by render-doc.ts; a test compares).
 */

export interface DimensionValue<V> {
  readonly value: V;
  /** What a target with this value does. */
  readonly means: string;
}

export interface Dimension<K extends string = string, V extends string | number = string | number> {
  /** The key in a conventions file and in `describeConventions`. */
  readonly id: K;
  readonly title: string;
  /** The specification's sentence (or choices.md's) that leaves the point open. */
  readonly spec: string;
  /** Legal values; the first is the emulator's. */
  readonly values: readonly [DimensionValue<V>, DimensionValue<V>, DimensionValue<V>, ...DimensionValue<V>[]];
}

function dimension<const K extends string, const V extends string | number>(d: Dimension<K, V>): Dimension<K, V> {
  return d;
}

const OTHER_OPERATIONS =
  "Other REST operations exist or are referred to (a read of one pod named `getPod`, a partial update of a pod by PATCH, the pod actions, `GET /v2/catalog/cpus`, `GET /v2/catalog/datacenters`, and the Serverless, Templates, Network Volumes, Registries and Billing groups): their methods, paths and payloads are not shown.";
const RECORDS = "Records of templates, network volumes, registries, serverless endpoint management, billing and catalog entries: not shown beyond the names of their groups.";
const JOB_ERRORS = "Error responses of the job endpoints, including a retry of a job in another status, an unknown job id and an expired result: not shown.";

export const DIMENSIONS = [
  dimension({
    id: "lists",
    title: "List envelopes and pagination",
    spec: OTHER_OPERATIONS,
    values: [
      { value: "choices", means: "one page in docs/choices.md's envelope: `{\"pods\": [...]}`, `{\"gpus\": [...]}` ..." },
      { value: "bare", means: "one page, a bare JSON array" },
      { value: "items-cursor", means: "`{\"items\": [...], \"nextCursor\": token|null}`, the next page at `?cursor=token`" },
      { value: "page-token", means: "`{\"items\": [...], \"nextPageToken\": token}` (absent on the last page), the next page at `?pageToken=token`" },
      { value: "data-link", means: "`{\"data\": [...]}` with a `Link: <url>; rel=\"next\"` header" },
      { value: "data-links", means: "`{\"data\": [...], \"links\": {\"next\": url|null}}`" },
      { value: "results-offset", means: "`{\"count\": n, \"results\": [...], \"next\": \"/v2/...?offset=k&limit=m\"|null}` (offsets)" },
    ],
  }),
  dimension({
    id: "pageSize",
    title: "Items per page, where lists are paged",
    spec: OTHER_OPERATIONS,
    values: [
      { value: 100, means: "pages of 100" },
      { value: 2, means: "pages of 2" },
      { value: 3, means: "pages of 3" },
      { value: 5, means: "pages of 5" },
    ],
  }),
  dimension({
    id: "actions",
    title: "Paths and methods of pod actions",
    spec: OTHER_OPERATIONS,
    values: [
      { value: "body", means: "`POST /v2/pods/{podId}/action` with `{\"action\": ...}` (docs/choices.md)" },
      { value: "verb", means: "`POST /v2/pods/{podId}/{start|stop|restart|terminate}`" },
      { value: "custom", means: "a custom method `POST /v2/pods/{podId}:{start|stop|restart}`; `DELETE` terminates" },
      { value: "desired-status", means: "`PATCH /v2/pods/{podId}` with `{\"desiredStatus\": RUNNING|EXITED|TERMINATED}` alone (no restart); stated in the profile" },
    ],
  }),
  dimension({
    id: "gpuPath",
    title: "Path of the GPU type catalog",
    spec: RECORDS,
    values: [
      { value: "/v2/catalog/gpus", means: "docs/choices.md's path" },
      { value: "/v2/gpu-types", means: "a path a probe tries" },
      { value: "/v2/hardware/gpu-types", means: "a path nobody guesses: stated in the profile" },
    ],
  }),
  dimension({
    id: "volumes",
    title: "Where network volumes are listed",
    spec: RECORDS,
    values: [
      { value: "/v2/networkvolumes", means: "listed at docs/choices.md's path" },
      { value: "/v2/network-volumes", means: "listed at a path a probe tries" },
      { value: "/v2/storage/volumes", means: "listed at a path stated in the profile" },
      { value: "unlisted", means: "listed nowhere; the profile names the account's volume ids" },
      { value: "unlisted-any-id", means: "listed nowhere, and the account's one volume takes the id a client first names in a mount (other ids unknown)" },
    ],
  }),
  dimension({
    id: "jobIds",
    title: "Format of job ids",
    spec: "Job `id`: string, \"Job identifier returned by submission\" (no format given).",
    values: [
      { value: "model", means: "as the model draws them (a UUID)" },
      { value: "prefix-job_", means: "`job_` + that id" },
      { value: "suffix-u1", means: "that id + `-u1` (a region suffix)" },
    ],
  }),
  dimension({
    id: "times",
    title: "Format of date-time fields",
    spec: "Pod `createdAt`: string, date-time; `startedAt`: string (date-time) or null (RFC 3339 allows any offset and fraction).",
    values: [
      { value: "z-millis", means: "`2026-01-02T03:04:05.678Z`" },
      { value: "offset-seconds", means: "`2026-01-02T03:04:05+00:00`, no fraction" },
      { value: "z-seconds", means: "`2026-01-02T03:04:05Z`, no fraction" },
      { value: "z-micros", means: "`2026-01-02T03:04:05.678000Z`" },
    ],
  }),
  dimension({
    id: "deletePod",
    title: "Answer to the deletion of a pod",
    spec: OTHER_OPERATIONS,
    values: [
      { value: "204", means: "204 without a body (docs/choices.md)" },
      { value: "200-pod", means: "200 with the terminated pod" },
      { value: "202-pod", means: "202 with the pod (its termination accepted)" },
    ],
  }),
  dimension({
    id: "jobNotFound",
    title: "Status for an unknown job id",
    spec: JOB_ERRORS,
    values: [
      { value: 404, means: "404 (docs/choices.md)" },
      { value: 400, means: "400" },
      { value: 410, means: "410 Gone" },
    ],
  }),
  dimension({
    id: "retryRefused",
    title: "Status for a retry of a job that is not FAILED or TIMED_OUT",
    spec: JOB_ERRORS,
    values: [
      { value: 409, means: "409 (docs/choices.md)" },
      { value: 400, means: "400" },
      { value: 422, means: "422" },
    ],
  }),
  dimension({
    id: "description",
    title: "Where the service advertises its description",
    spec: "Versioning: \"Deprecation policy and compatibility rules between versions: not shown\"; the specification names no description document at all.",
    values: [
      { value: "openapi-json", means: "OpenAPI at `/openapi.json`" },
      { value: "none", means: "no description anywhere" },
      { value: "well-known", means: "OpenAPI at `/.well-known/openapi.json` only" },
      { value: "link-header", means: "OpenAPI at `/api/spec.json`, named by `Link: </api/spec.json>; rel=\"service-desc\"` on every REST answer" },
    ],
  }),
  dimension({
    id: "memberOrder",
    title: "Order of members in JSON objects",
    spec: "The specification's tables list fields, not their order (JSON objects are unordered, RFC 8259).",
    values: [
      { value: "model", means: "the model's order" },
      { value: "sorted", means: "members sorted by name" },
      { value: "reversed", means: "the model's order reversed" },
    ],
  }),
  dimension({
    id: "headerCase",
    title: "Spelling of response header names",
    spec: "The specification names headers (`RateLimit`, `Retry-After`, `Content-Type`) without a spelling on the wire; field names are case-insensitive (RFC 9110).",
    values: [
      { value: "lower", means: "`content-type`, `ratelimit`" },
      { value: "canonical", means: "`Content-Type`, `Ratelimit`, `Retry-After`" },
      { value: "upper", means: "`CONTENT-TYPE`, `RATELIMIT`" },
    ],
  }),
  dimension({
    id: "extraFields",
    title: "Members the specification does not name",
    spec: "Pod: \"Required in the response: id, name, status, ...\": the tables list what an answer holds at least; Job: `output` \"optional\".",
    values: [
      { value: "none", means: "only the model's members" },
      { value: "request-id", means: "every JSON object answer at the top level also carries `\"requestId\": \"req_...\"`" },
      { value: "links", means: "every object with an `id` also carries `\"_links\": {\"self\": {\"href\": ...}}`" },
    ],
  }),
  // Appended, never inserted: a seed draws the dimensions in this order, so an earlier
  // dimension's value for a seed stays what it was when a dimension is added.
  dimension({
    id: "globalNetwork",
    title: "JSON type of the data center catalog's `globalNetwork` field",
    spec: "CreatePodRequest `globalNetworking`: \"eligible data centers carry a `globalNetwork` field in the data center catalog\" (no type given; the catalog's records are not shown).",
    values: [
      { value: "boolean", means: "`true` or `false` on every data center (docs/choices.md)" },
      { value: "only-eligible", means: "`\"globalNetwork\": true` on eligible data centers, the member absent on the others (the sentence read literally)" },
      { value: "string", means: "`\"enabled\"` or `\"disabled\"`" },
      { value: "object", means: "`{\"enabled\": true, \"cidr\": \"10.64.0.0/10\"}` or `{\"enabled\": false}`" },
      { value: "range", means: "the network's address range (`\"10.64.0.0/10\"`) on eligible data centers, `null` on the others" },
    ],
  }),
  dimension({
    id: "catalogNumbers",
    title: "JSON type of the numbers in catalog records (GPU types, CPU flavors, data centers)",
    spec: RECORDS,
    values: [
      { value: "number", means: "JSON numbers: `\"memoryInGb\": 80`, `\"price\": 0.69`, `\"availableGpuCounts\": [1, 2]`" },
      { value: "string", means: "every number a decimal string: `\"memoryInGb\": \"80\"`, `\"price\": \"0.69\"`, `\"availableGpuCounts\": [\"1\", \"2\"]`, `\"vcpu\": {\"min\": \"2\", ...}`" },
      { value: "money-string", means: "prices alone as decimal strings of four places (`\"price\": \"0.6900\"`, `\"perVcpuHour\": \"0.0300\"`), as money APIs do; counts and sizes stay numbers" },
    ],
  }),
  dimension({
    id: "gpuClouds",
    title: "Which clouds offer each GPU type",
    spec: "CreatePodRequest `cloud`: \"Default `SECURE`\"; GPU type records of the catalog: not shown (nothing says a type is offered in both clouds).",
    values: [
      { value: "fixtures", means: "as the bundled catalog: most types in both clouds, a few in one" },
      { value: "by-class", means: "every type in one cloud only: GeForce cards in COMMUNITY only, data-center cards in SECURE only" },
      { value: "alternate", means: "every type in one cloud only: the types the fixtures offer in both alternate, SECURE only then COMMUNITY only" },
    ],
  }),
  dimension({
    id: "vcpuCounts",
    title: "The vCPU counts each CPU flavor offers",
    spec: "CpuConfig `vcpuCount`: \"integer, minimum 2\", \"Must be valid for the flavor and a power of two\" (which powers a flavor offers: not shown).",
    values: [
      { value: "contiguous", means: "every power of two from 2 to the flavor's largest (the bundled catalog)" },
      { value: "sparse", means: "non-contiguous: 2, 8, 32 (every other power of two, up to the flavor's largest)" },
      { value: "large-only", means: "from 8 up: a flavor offers no 2 or 4" },
    ],
  }),
  dimension({
    id: "descriptionFormat",
    title: "Format and version of the service description",
    spec: "Versioning: \"Deprecation policy and compatibility rules between versions: not shown\"; the specification names no description document, so neither its format nor its version.",
    values: [
      { value: "openapi-3.1-json", means: "OpenAPI 3.1 in JSON, paths in full (`/v2/pods`)" },
      { value: "openapi-3.0-json", means: "OpenAPI 3.0.3 in JSON: `nullable` rather than type arrays, paths relative to `servers: [{\"url\": \"/v2\"}]`" },
      { value: "openapi-3.1-yaml", means: "OpenAPI 3.1 in YAML (`application/yaml`), at the `.yaml` twin of the description's path (`/openapi.yaml`, `/.well-known/openapi.yaml`, `/api/spec.yaml`)" },
      { value: "openapi-3.0-yaml", means: "OpenAPI 3.0.3 in YAML, paths relative to `servers: /v2`, at the `.yaml` twin of the path" },
      { value: "swagger-2.0-json", means: "Swagger 2.0 in JSON: `basePath: /v2`, `definitions`, body parameters; at `/swagger.json` where the description would be `/openapi.json`" },
      { value: "swagger-2.0-yaml", means: "Swagger 2.0 in YAML, at `/swagger.yaml` where the description would be `/openapi.json`, else the `.yaml` twin" },
    ],
  }),
  dimension({
    id: "checkOrder",
    title: "Order of the route, key and rate-limit checks, seen from a request no route serves",
    spec: "Authentication: \"A missing, malformed, expired or invalid key gives 401\"; Limits: rate limiting \"applied per user\"; the specification names no answer for an unknown path or method, nor the order of these checks.",
    values: [
      { value: "route-auth-rate", means: "the route first: an unknown path 404 and a wrong method 405 (with `Allow`) whatever the key, uncounted" },
      { value: "auth-route-rate", means: "the key first: any request without a valid key 401, an unknown path included; then 404/405, uncounted" },
      { value: "auth-rate-route", means: "the key, then the rate limit, then the route: an unknown path costs a unit, answers 429 when a window is spent, and its 404/405 carries `RateLimit` and `RateLimit-Policy`" },
      { value: "auth-rate-route-no-405", means: "as `auth-rate-route`, and a method its path does not serve answers 404 (no 405, no `Allow`)" },
    ],
  }),
  dimension({
    id: "actionEffect",
    title: "When a pod action's effect shows",
    spec: "Pod status: \"Moves caused by `start`, `stop`, `restart`, `terminate` [...]: not shown. Clients observe readiness by reading the pod and checking `status`.\"",
    values: [
      { value: "immediate", means: "the action's answer and every read after it show its effect" },
      { value: "delayed-2s", means: "answered 200 at once with the pod as it was last read; REST reads show that pod for 2 s more of the service's time" },
      { value: "delayed-30s", means: "as `delayed-2s`, for 30 s" },
      { value: "delayed-300s", means: "as `delayed-2s`, for 5 minutes" },
    ],
  }),
  dimension({
    id: "rateQuotas",
    title: "The rate-limit quotas of each window",
    spec: "Limits: \"Rate limiting: applied per user over three windows, `minute`, `hour` and `day` [...] window length `w` in seconds (60, 3600, 86400) [...] The numeric quotas as a fixed contract: not shown.\" (the windows and their lengths are fixed; only the quotas vary)",
    values: [
      { value: "fixtures", means: "the bundled accounts' quotas (1000, 20000, 200000 a minute, hour, day for the suite's main account; 60, 3000, 50000 for the other)" },
      { value: "tight", means: "at most 120 a minute and 3000 an hour on every limited account" },
      { value: "generous", means: "ten times the bundled quotas" },
      { value: "uneven", means: "the hour's quota at most ten minutes' worth: the hour window binds before sixty full minutes" },
    ],
  }),
  dimension({
    id: "catalogIds",
    title: "The ids of GPU types and data centers",
    spec: "CreatePodRequest `gpu.id`: \"GPU type identifier\"; `dataCenterIds`: \"Preferred data centers\" (array of string); the catalog's records: not shown (no id format is given).",
    values: [
      { value: "fixtures", means: "the bundled ids: `NVIDIA GeForce RTX 4090`, `EU-RO-1`" },
      { value: "slugs", means: "lower-case slugs: `nvidia-geforce-rtx-4090`, `eu-ro-1`" },
      { value: "opaque", means: "ids that say nothing of the card or the place: `gpu-type-07`, `dc-03`" },
      { value: "numeric", means: "decimal strings, counted per catalog: GPU type `\"7\"` and data center `\"7\"` may share an id" },
    ],
  }),
  dimension({
    id: "workers",
    title: "Workers of the bundled endpoints and their lifecycle",
    spec: "Limits: \"Concurrency limits and queue limits for job endpoints: not shown\" (nor how many workers an endpoint runs, how soon a job is picked up, or how long a worker takes to start).",
    values: [
      { value: "fixtures", means: "as bundled: the conformance endpoint scales 0 to 3 workers, a cold start of about 2 s, idle workers stop after 5 s" },
      { value: "one-worker", means: "at most one worker per endpoint: jobs wait behind each other" },
      { value: "always-warm", means: "every endpoint keeps at least 2 workers running: a job is picked up at once, never seen queued for long" },
      { value: "slow-cold", means: "at most 2 workers, none kept: each cold start takes about 30 s and an idle worker stops after 1 s" },
    ],
  }),
  dimension({
    id: "rateWindows",
    title: "Fixed or sliding rate-limit windows, and what `t` and `Retry-After` then say",
    spec: "Limits: \"Rate limiting: applied per user over three windows, `minute`, `hour` and `day`. `RateLimit` carries one member per window with remaining count `r` and seconds until reset `t`; `RateLimit-Policy` carries [...] window length `w` in seconds (60, 3600, 86400).\" (whether a window is fixed or sliding, where a fixed one starts, and which moment a sliding one calls its reset: not stated)",
    values: [
      { value: "fixed-aligned", means: "fixed windows aligned to the clock (the minute at every whole minute): `r` back to the quota when `t` runs out; `Retry-After` is the spent window's `t`" },
      { value: "fixed-anchored", means: "a fixed window opens at the user's first request after the last one closed and lasts `w` (as GitHub's hour): `t` is `w` before any request; `Retry-After` is the spent window's `t`" },
      { value: "sliding", means: "the last `w` seconds, counted in 60 buckets (a second each for the minute): `r` comes back a bucket at a time, not all at once; `t` until the oldest counted bucket leaves; `Retry-After` until enough has left for the request" },
      { value: "sliding-whole", means: "the same sliding count, but `t` until the whole quota is back (the newest counted bucket leaves): `t` starts again from `w` with every request, `r` rises before `t` runs out, and `Retry-After` (until enough has left for the request) comes before `t`" },
      { value: "sliding-weighted", means: "a sliding window approximated from two fixed ones (as Cloudflare's and Upstash's limiters): the current minute's requests plus the previous minute's at the weight of its part still inside the last `w`, rounded up; `r` rises a little at a time as that weight falls; `t` until the current fixed window ends, where the quota is not yet whole; `Retry-After` until the weight has fallen enough, before or after `t`" },
    ],
  }),
  dimension({
    id: "streamReads",
    title: "How many chunks a stream read gives, and which answer reports the job's end",
    spec: "Job operations: `stream`, `GET /v2/<endpoint_id>/stream/<job_id>`, answers an \"Array of stream chunks\"; rule 5: it \"yields incremental output as it becomes available\" (how many chunks one read gives, and whether the read that gives the last ones already reports the end: not stated; every value keeps the `{status, stream}` answer that the official JS client reads until the status is final)",
    values: [
      { value: "pending", means: "every chunk that appeared since the previous read; the read after the job ends gives the last ones with the final status (docs/choices.md)" },
      { value: "one-per-read", means: "one chunk per read, the oldest not yet given: the job reads `IN_PROGRESS` until the read that gives the last chunk, which reports the end" },
      { value: "batches-of-3", means: "at most three chunks per read, as `one-per-read` otherwise" },
      { value: "end-on-empty", means: "every pending chunk, but a read that gives chunks of an ended job says `IN_PROGRESS`: the end is reported by the next read, with an empty `stream`" },
    ],
  }),
] as const;

export type DimensionId = (typeof DIMENSIONS)[number]["id"];

type ValueOf<D> = D extends Dimension<string, infer V> ? V : never;

/** One value per dimension. */
export type Conventions = { readonly [D in (typeof DIMENSIONS)[number] as D["id"]]: ValueOf<D> };

/** The emulator's own conventions: each dimension's first value. */
export const EMULATOR_CONVENTIONS: Conventions = Object.fromEntries(DIMENSIONS.map((d) => [d.id, d.values[0].value])) as unknown as Conventions;
