/**
 * One GraphQL request, transport-free: the emulator's /graphql operations call it, and the
 * conformance oracle calls it directly to know what a request must produce.
 *
 * In order: the request parameters (400 when there is no string `query`), the document size
 * (400), parsing with a token limit (400), validation with the specified rules and the depth and
 * field limits (400), the operation to run (400 when operationName names none), a mutation over
 * GET (405) or with a read-only key (403, before anything runs), then execution. Errors a
 * resolver raises answer 200 with `errors` beside `data`, as GraphQL servers do (the official
 * clients raise any top-level `errors` as an exception); variables that do not fit their types
 * answer 400, since nothing ran. Every error body is the standard `{"errors": [...]}` envelope.
 */
import { GraphQLError, Kind, executeSync, getOperationAST, parse, specifiedRules, validate, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from "graphql";
import type { Micros } from "../../core/index.ts";
import type { Platform } from "../../domain/platform.ts";
import { json } from "../json-response.ts";
import { formatRateLimitHeaders, rateLimitDetail } from "../../domain/ratelimit/index.ts";
import { documentNesting } from "./document-nesting.ts";
import type { Principal } from "../op-context.ts";
import type { ApiResponse } from "../types.ts";
import { GraphqlCode } from "./error-codes.ts";
import { formatError, type FormattedError } from "./format-error.ts";
import { defaultGraphqlLimits, limitRule, type GraphqlLimits } from "./limits.ts";
import { paramsFromBody } from "./request-params.ts";
import type { ResolverContext } from "./resolver-context.ts";
import { rootValue } from "./root-value.ts";
import { graphqlSchema } from "./schema.ts";

export interface ExecuteOptions {
  /** GET runs queries only (a mutation answers 405). Default POST. */
  readonly method?: "GET" | "POST";
  readonly limits?: GraphqlLimits;
  /** `http://host[:port]` the request reached (from its Host header), for URLs the answer hands out. */
  readonly origin?: string;
}

/** The request as the client sent it: normally `{query, variables?, operationName?}`, but any JSON value is answered. */
export type GraphqlRequest = unknown;

function errorResponse(status: number, errors: FormattedError[], headers: Readonly<Record<string, string>> = {}): ApiResponse {
  return json(status, { errors }, headers);
}

function single(status: number, message: string, code: string, headers?: Readonly<Record<string, string>>): ApiResponse {
  return errorResponse(status, [{ message, extensions: { code } }], headers);
}

/** graphql-js builds results from null-prototype objects; the answer is plain JSON data. */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

const rules = new WeakMap<GraphqlLimits, ReturnType<typeof validationRules>>();
function validationRules(limits: GraphqlLimits) {
  return [...specifiedRules, limitRule(limits)];
}

export function executeGraphql(
  platform: Platform,
  principal: Principal,
  request: GraphqlRequest,
  now: Micros,
  options: ExecuteOptions = {},
): ApiResponse {
  try {
    return executeChecked(platform, principal, request, now, options);
  } catch (error) {
    // The nesting limit keeps graphql-js's recursion far from the stack's end; should anything
    // still recurse too deep, the answer is the client's 400, not a crash or a 500.
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      return single(400, "The document nests too deeply to be processed; send a flatter document.", GraphqlCode.QUERY_TOO_COMPLEX);
    }
    throw error;
  }
}

function executeChecked(
  platform: Platform,
  principal: Principal,
  request: GraphqlRequest,
  now: Micros,
  options: ExecuteOptions,
): ApiResponse {
  const limits = options.limits ?? defaultGraphqlLimits;
  const params = paramsFromBody(request);
  if (!params.ok) return single(400, params.message, GraphqlCode.BAD_REQUEST);
  const { query, variables, operationName } = params.params;

  // Cheap bound first: a UTF-16 unit is at most 3 UTF-8 bytes.
  if (query.length * 3 > limits.maxDocumentBytes && Buffer.byteLength(query, "utf8") > limits.maxDocumentBytes) {
    return single(400, `The query is ${Buffer.byteLength(query, "utf8")} bytes; the limit is ${limits.maxDocumentBytes}. Send a smaller document.`, GraphqlCode.QUERY_TOO_LARGE);
  }

  const maxNesting = limits.maxNesting ?? defaultGraphqlLimits.maxNesting!;
  if (documentNesting(query, maxNesting) > maxNesting) {
    return single(400, `The document nests brackets ({, [ or () more than ${maxNesting} levels deep, the limit; send a flatter document.`, GraphqlCode.QUERY_TOO_COMPLEX);
  }

  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: limits.maxTokens });
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    // graphql-js words it "Document contains more that N tokens" (sic); the answer uses its own sentence.
    if (/Document contains more th\w+ \d+ tokens/.test(error.message)) {
      return single(400, `The document has more than ${limits.maxTokens} tokens, the limit; send a smaller document.`, GraphqlCode.QUERY_TOO_COMPLEX);
    }
    return errorResponse(400, [formatError(error, GraphqlCode.PARSE_FAILED)]);
  }

  let ruleList = rules.get(limits);
  if (!ruleList) rules.set(limits, (ruleList = validationRules(limits)));
  const invalid = validate(graphqlSchema, document, ruleList, { maxErrors: 25 });
  if (invalid.length > 0) return errorResponse(400, invalid.map((e) => formatError(e, GraphqlCode.VALIDATION_FAILED)));

  const operation = getOperationAST(document, operationName);
  if (!operation) {
    const message =
      operationName !== undefined
        ? `The document has no operation named ${JSON.stringify(operationName)}; send the name of one of its operations in operationName.`
        : "The document holds several operations; name the one to run in operationName.";
    return single(400, message, GraphqlCode.OPERATION_RESOLUTION_FAILURE);
  }
  // graphql-js 16 validates no root operation types; a subscription would fail only in execute.
  if (!graphqlSchema.getRootType(operation.operation)) {
    return single(400, `The schema has no ${operation.operation} operations; send a query or a mutation.`, GraphqlCode.VALIDATION_FAILED);
  }
  /** Rate-limit headers after the further units a multi-mutation document took; they replace the request's own. */
  let charged: Record<string, string> = {};
  if (operation.operation === "mutation") {
    if (options.method === "GET") {
      return single(405, "Mutations cannot be sent with GET; send them with POST /graphql and a JSON body {\"query\": ...}.", GraphqlCode.METHOD_NOT_ALLOWED, { allow: "POST" });
    }
    if (principal.access === "read-only") {
      return single(403, "This API key is read-only; mutations need a key with write access. Queries work with this key.", GraphqlCode.FORBIDDEN);
    }
    // Rate limits count work, not envelopes: each mutation field takes one unit of quota (the
    // request itself took the first), and a document holds at most maxMutationFields of them.
    const maxMutations = limits.maxMutationFields ?? defaultGraphqlLimits.maxMutationFields!;
    const mutations = rootFieldCount(operation, document, maxMutations + 1);
    if (mutations > maxMutations) {
      return single(400, `The mutation has more than ${maxMutations} fields (aliases and fragments counted), the limit per document; send the rest in further requests.`, GraphqlCode.QUERY_TOO_COMPLEX);
    }
    if (mutations > 1 && principal.accountId !== "") {
      const decision = platform.rateLimits.check(principal.accountId, now, { exempt: principal.access === "exempt", cost: mutations - 1 });
      // The answer's RateLimit header shows every unit charged, not only the request's first.
      const h = formatRateLimitHeaders(decision);
      if (h !== undefined) charged = { ratelimit: h.RateLimit, "ratelimit-policy": h["RateLimit-Policy"], ...(h["Retry-After"] !== undefined ? { "retry-after": h["Retry-After"] } : {}) };
      if (!decision.allowed) {
        const detail = rateLimitDetail(decision) ?? "rate limit exceeded";
        return single(429, `The document holds ${mutations} mutations, each counted against the rate limit: ${detail}`, "RATE_LIMITED", charged);
      }
    }
  }

  const contextValue: ResolverContext = { platform, principal, now, ...(options.origin !== undefined ? { origin: options.origin } : {}) };
  const result = executeSync({
    schema: graphqlSchema,
    document,
    rootValue,
    contextValue,
    ...(variables ? { variableValues: variables } : {}),
    ...(operationName !== undefined ? { operationName } : {}),
  });
  const errors = (result.errors ?? []).map((e) => formatError(e, GraphqlCode.BAD_USER_INPUT));
  // No `data` at all: the request failed before execution (variables that do not coerce).
  if (!("data" in result) || result.data === undefined) return errorResponse(400, errors, charged);
  return json(200, plain(errors.length > 0 ? { errors, data: result.data } : { data: result.data }), charged);
}

/** Root fields of an operation, fragments and inline fragments expanded, counted up to `cap`. */
export function rootFieldCount(operation: OperationDefinitionNode, document: DocumentNode, cap: number): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  let count = 0;
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode): void => {
    for (const s of set.selections) {
      if (count >= cap) return;
      if (s.kind === Kind.FIELD) {
        if (s.name.value !== "__typename") count++;
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        walk(s.selectionSet);
      } else {
        // A fragment spread twice at the root still runs its fields once (field merging).
        const f = fragments.get(s.name.value);
        if (f === undefined || seen.has(s.name.value)) continue;
        seen.add(s.name.value);
        walk(f.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return Math.min(count, cap);
}
