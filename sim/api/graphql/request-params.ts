/**
 * The GraphQL-over-HTTP request parameters, from a POST body (`{query, variables?,
 * operationName?}`) or from a GET query string (`?query=...&variables=<JSON>&operationName=...`).
 * Anything else is not a GraphQL request and answers 400 with the sentence returned here.
 * Keys other than these three (`extensions`, the `api_key` of the query string) are ignored.
 */

export interface GraphqlParams {
  readonly query: string;
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly operationName?: string;
}

export type ParamsResult = { readonly ok: true; readonly params: GraphqlParams } | { readonly ok: false; readonly message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const EXAMPLE = '{"query": "{ myself { id } }"}';

function variablesOf(value: unknown): Readonly<Record<string, unknown>> | undefined | string {
  if (value === undefined || value === null) return undefined;
  // Some clients send variables as a JSON string; it is read as the object it encodes.
  if (typeof value === "string") {
    if (value.trim() === "") return undefined;
    try {
      value = JSON.parse(value);
    } catch {
      return "variables is a string that is not JSON; send variables as a JSON object, e.g. {\"podId\": \"abc\"}.";
    }
  }
  return isObject(value) ? value : "variables must be a JSON object of variable values, e.g. {\"podId\": \"abc\"}, or null.";
}

/** From a POST body (already parsed JSON). */
export function paramsFromBody(body: unknown): ParamsResult {
  if (Array.isArray(body)) return { ok: false, message: `Batched requests are not supported; send one JSON object such as ${EXAMPLE}.` };
  if (!isObject(body)) return { ok: false, message: `The request body must be a JSON object such as ${EXAMPLE}.` };
  const { query, operationName } = body;
  if (typeof query !== "string") {
    return {
      ok: false,
      message: query === undefined || query === null ? `The request body has no query; send ${EXAMPLE}.` : `query must be a string holding a GraphQL document, e.g. ${EXAMPLE}.`,
    };
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== "string") {
    return { ok: false, message: "operationName must be a string naming one operation of the document, or null." };
  }
  const variables = variablesOf(body.variables);
  if (typeof variables === "string") return { ok: false, message: variables };
  return {
    ok: true,
    params: { query, ...(variables ? { variables } : {}), ...(typeof operationName === "string" && operationName !== "" ? { operationName } : {}) },
  };
}

/** From a GET query string; `variables` there is JSON text. */
export function paramsFromQuery(query: Readonly<Record<string, string>>): ParamsResult {
  if (query.query === undefined || query.query === "") {
    return { ok: false, message: "GET /graphql needs the document in the query parameter query, e.g. /graphql?query=%7B%20myself%20%7B%20id%20%7D%20%7D." };
  }
  return paramsFromBody({ query: query.query, variables: query.variables, operationName: query.operationName });
}
