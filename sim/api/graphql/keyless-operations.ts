/**
 * The GraphQL documents a caller may send without an API key: Flash's browser login, whose
 * client (`create_auth_request`, `get_auth_request_status`, sent with `anonymous=True`) has no key
 * yet: that is what the login is for. A keyless document passes only when it parses within the
 * limits and every root field of its operation (fragments expanded) is one of these; anything
 * else without a key answers 401 as before, so no other field is ever reachable anonymously.
 */
import { GraphQLError, Kind, getOperationAST, parse, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from "graphql";
import type { ApiRequest } from "../types.ts";
import { documentNesting } from "./document-nesting.ts";
import { defaultGraphqlLimits } from "./limits.ts";
import { paramsFromBody, paramsFromQuery } from "./request-params.ts";

export const KEYLESS_FIELDS: ReadonlySet<string> = new Set(["createFlashAuthRequest", "flashAuthRequestStatus", "__typename"]);

/** Whether a request without credentials to `POST` / `GET /graphql` may run (see the module comment). */
export function keylessGraphqlAllowed(request: ApiRequest): boolean {
  const params = request.method === "GET" ? paramsFromQuery(request.query) : paramsFromBody(request.body);
  if (!params.ok) return false;
  const { query, operationName } = params.params;
  const limits = defaultGraphqlLimits;
  if (Buffer.byteLength(query, "utf8") > limits.maxDocumentBytes || documentNesting(query, limits.maxNesting!) > limits.maxNesting!) return false;
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: limits.maxTokens });
  } catch (error) {
    if (error instanceof GraphQLError || error instanceof RangeError) return false;
    throw error;
  }
  const operation = getOperationAST(document, operationName);
  if (operation === null || operation === undefined) return false;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const seen = new Set<string>();
  const onlyKeyless = (set: SelectionSetNode): boolean =>
    set.selections.every((s) => {
      if (s.kind === Kind.FIELD) return KEYLESS_FIELDS.has(s.name.value);
      if (s.kind === Kind.INLINE_FRAGMENT) return onlyKeyless(s.selectionSet);
      if (seen.has(s.name.value)) return true;
      seen.add(s.name.value);
      const f = fragments.get(s.name.value);
      return f !== undefined && onlyKeyless(f.selectionSet);
    });
  return onlyKeyless(operation.selectionSet);
}
