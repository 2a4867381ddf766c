/**
 * What a load scenario is, as data: the requests it sends (built once before the run), the checks
 * every response must satisfy (counted like k6's `check`), the thresholds that fail the run (k6's
 * threshold syntax, so the same strings go into exported k6 scripts), and the setup that makes
 * the ids its requests need. One TypeBox declaration gives both the JSON Schema that validates
 * user files (ajv) and the TypeScript type of the built-in ones.
 */
import { Type, type Static } from "@sinclair/typebox";

const Json = Type.Unknown();

/**
 * A JSON body; a job submission `{"input": ...}` padded with a `pad` string to `padToBytes`; a
 * GraphQL query; or `pod`: a createPod body the target will take, built before the run from its
 * own catalog (one GPU of a type it has in stock, else its smallest CPU pod) with this name and
 * image. A scenario whose pod body cannot be built for the target is skipped, with the reason.
 */
export const BodySchema = Type.Union([
  Type.Object({ json: Json }, { additionalProperties: false }),
  Type.Object(
    {
      jobInput: Type.Record(Type.String(), Json),
      padToBytes: Type.Optional(Type.Integer({ minimum: 0, maximum: 64 * 1024 * 1024 })),
    },
    { additionalProperties: false },
  ),
  Type.Object({ graphql: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  Type.Object(
    { pod: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), image: Type.String({ minLength: 1, maxLength: 500 }) }, { additionalProperties: false }) },
    { additionalProperties: false },
  ),
]);
export type BodySpec = Static<typeof BodySchema>;

/**
 * One request of the scenario. `path` may hold `{endpoint}` and `{ids:NAME}`: the latter expands
 * the request into one per id that the setup step NAME made. `weight` shapes a mix.
 */
export const RequestSchema = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    method: Type.Union([Type.Literal("GET"), Type.Literal("POST"), Type.Literal("DELETE"), Type.Literal("PATCH")]),
    /** `base`: {base_url} (REST, GraphQL); `serverless`: {serverless_url} (job endpoints). */
    host: Type.Union([Type.Literal("base"), Type.Literal("serverless")]),
    path: Type.String({ pattern: "^/" }),
    body: Type.Optional(BodySchema),
    weight: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  },
  { additionalProperties: false },
);
export type RequestSpec = Static<typeof RequestSchema>;

const StatusList = Type.Array(Type.Integer({ minimum: 100, maximum: 599 }), { minItems: 1 });

/** Which responses a check applies to (by status); all when absent. */
const When = Type.Optional(Type.Object({ status: StatusList }, { additionalProperties: false }));
/** The check applies only to the answers of the request with this name. */
const ForRequest = Type.Optional(Type.String({ minLength: 1 }));

export const CheckSchema = Type.Union([
  Type.Object(
    {
      name: Type.String({ minLength: 1 }),
      kind: Type.Literal("status"),
      /** Accepted statuses, or an inclusive range. */
      in: Type.Optional(StatusList),
      min: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
      max: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
      when: When,
      request: ForRequest,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      name: Type.String({ minLength: 1 }),
      /** The JSON body has a non-empty string (or a number) at `path` (dot-separated). */
      kind: Type.Literal("json-field"),
      path: Type.String({ minLength: 1 }),
      when: When,
      request: ForRequest,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      name: Type.String({ minLength: 1 }),
      /** The JSON body has an array at `path` with at least `minItems` items. */
      kind: Type.Literal("json-array"),
      path: Type.String({ minLength: 1 }),
      minItems: Type.Integer({ minimum: 0 }),
      when: When,
      request: ForRequest,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      name: Type.String({ minLength: 1 }),
      /** Every chunk of a stream answer (`stream[]` or a bare array) has an `output` of at most maxBytes. */
      kind: Type.Literal("stream-chunks"),
      maxBytes: Type.Integer({ minimum: 1 }),
      when: When,
      request: ForRequest,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      name: Type.String({ minLength: 1 }),
      /** The response carries this header (lower case); with `integer`, its value is a whole number. */
      kind: Type.Literal("header"),
      header: Type.String({ pattern: "^[a-z0-9-]+$" }),
      integer: Type.Optional(Type.Boolean()),
      when: When,
      request: ForRequest,
    },
    { additionalProperties: false },
  ),
]);
export type CheckSpec = Static<typeof CheckSchema>;

/** Jobs submitted before the run, whose ids the requests use as `{ids:NAME}`. */
export const SetupSchema = Type.Object(
  {
    name: Type.String({ pattern: "^[a-z][a-z0-9-]*$" }),
    kind: Type.Literal("submit-jobs"),
    count: Type.Integer({ minimum: 1, maximum: 10_000 }),
    input: Type.Record(Type.String(), Json),
    /** Wait (at most setupTimeoutS) until every job reached a final status before the run. */
    waitForCompletion: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type SetupSpec = Static<typeof SetupSchema>;

export const ScenarioSchema = Type.Object(
  {
    name: Type.String({ pattern: "^[a-z][a-z0-9-]*$", maxLength: 64 }),
    description: Type.String({ minLength: 1 }),
    /** `limited`: the key must be rate limited (the rate-limit scenario); `default`: the run's key. */
    key: Type.Optional(Type.Union([Type.Literal("default"), Type.Literal("limited")])),
    setup: Type.Optional(Type.Array(SetupSchema, { maxItems: 10 })),
    requests: Type.Array(RequestSchema, { minItems: 1, maxItems: 100 }),
    /** Statuses that are not failures (k6's expectedStatuses); 200-399 when absent. 429 is always counted apart. */
    expectedStatuses: Type.Optional(Type.Object({ min: Type.Integer({ minimum: 100 }), max: Type.Integer({ maximum: 599 }) }, { additionalProperties: false })),
    checks: Type.Array(CheckSchema, { maxItems: 50 }),
    /** k6 thresholds: metric → expressions such as "p(99)<500", "rate>0.99", "count>0". */
    thresholds: Type.Record(Type.String({ pattern: "^[a-z_]+$" }), Type.Array(Type.String({ minLength: 3 }), { minItems: 1 })),
    /** Bounds of a run of this scenario unless the command line says otherwise. */
    defaults: Type.Object(
      {
        durationS: Type.Number({ exclusiveMinimum: 0, maximum: 3600 }),
        connections: Type.Integer({ minimum: 1, maximum: 1000 }),
        maxRequests: Type.Integer({ minimum: 1, maximum: 100_000_000 }),
        /** Arrival rate when the scenario needs the open model (rate-limit); otherwise closed. */
        rate: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000 })),
      },
      { additionalProperties: false },
    ),
    /** Pods created by the run are terminated after it (create-pod). */
    terminatePods: Type.Optional(Type.Boolean()),
    /** After the run, this many stream jobs are read to the end and their chunks reassembled. */
    streamReassembly: Type.Optional(
      Type.Object({ sample: Type.Integer({ minimum: 1, maximum: 100 }), input: Type.Record(Type.String(), Json) }, { additionalProperties: false }),
    ),
    /** While the run lasts, a light request every 100 ms must keep succeeding (the server keeps serving). */
    canary: Type.Optional(Type.Object({ host: Type.Union([Type.Literal("base"), Type.Literal("serverless")]), path: Type.String({ pattern: "^/" }) }, { additionalProperties: false })),
    /** Judge the RateLimit countdown and when 429s appear (the rate-limit scenario). */
    rateLimitSequence: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type Scenario = Static<typeof ScenarioSchema>;

/** 1 MB read as the larger MiB: a chunk within either reading passes (the lenient reading). */
export const CHUNK_LIMIT_BYTES = 1024 * 1024;
/** Just under both readings of 10 MB and 20 MB, and just over both (the MB/MiB band). */
export const RUN_LIMIT_UNDER = 10_000_000 - 16 * 1024;
export const RUN_LIMIT_OVER = 10 * 1024 * 1024 + 64 * 1024;
export const RUNSYNC_LIMIT_UNDER = 20_000_000 - 16 * 1024;
export const RUNSYNC_LIMIT_OVER = 20 * 1024 * 1024 + 64 * 1024;
