/**
 * Limits on GraphQL documents, so one request cannot make the emulator do unbounded work:
 * document size (checked before parsing), tokens (checked by the parser), and per operation the
 * depth of nested fields and the number of fields selected, aliases included.
 *
 * Depth and field count are measured on the operation with its fragments expanded: counting the
 * document as written would let a fragment of 100 fields spread under 100 aliases pass as 100
 * fields. Each fragment is measured once (memoized), so the measurement itself stays linear in the
 * document; a fragment cycle is skipped here because the specified NoFragmentCycles rule reports it.
 */
import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from "graphql";

export interface GraphqlLimits {
  /** Bytes of the query string (UTF-8). */
  readonly maxDocumentBytes: number;
  /** Lexical tokens of the document (graphql-js `parse` option). */
  readonly maxTokens: number;
  /** Nesting of fields: `{ myself { pods { id } } }` is 3. */
  readonly maxDepth: number;
  /** Field selections of one operation, fragments expanded and aliases counted. */
  readonly maxFields: number;
  /** Nesting of `{`, `[` and `(` in the document text, checked before parsing (document-nesting.ts). */
  readonly maxNesting?: number;
  /** Root fields of one mutation operation, fragments expanded; each also counts against the rate limit. */
  readonly maxMutationFields?: number;
}

/**
 * Generous for every document an official client sends (the largest, `myself { pods }` with the
 * full selection, is 4 deep with 30 fields) and for graphql-js's own introspection query (15
 * deep, through its `ofType` chain), which tools such as GraphiQL send. The schema's own types
 * nest at most 5 deep, so only introspection chains can come near the depth limit.
 */
export const defaultGraphqlLimits: GraphqlLimits = Object.freeze({
  maxDocumentBytes: 64 * 1024,
  maxTokens: 10_000,
  maxDepth: 15,
  maxFields: 1000,
  // Far below the few thousand levels at which graphql-js's recursion overflows the stack, and
  // far above any real document (introspection's deepest is about 12).
  maxNesting: 64,
  // The official clients send one mutation per document; a few batched ones stay possible.
  maxMutationFields: 10,
});

/** The code in `extensions.code` of a limit error. */
export const QUERY_TOO_COMPLEX = "QUERY_TOO_COMPLEX";

interface Cost {
  /** Fields selected, capped just above the limit so numbers stay small whatever the fragments. */
  readonly fields: number;
  /** Levels of fields below this selection set (1 for leaves only). */
  readonly depth: number;
}

export function measureOperation(operation: OperationDefinitionNode, context: Pick<ValidationContext, "getFragment">, cap: number): Cost {
  const memo = new Map<string, Cost>();
  const visiting = new Set<string>();
  const measure = (set: SelectionSetNode): Cost => {
    let fields = 0;
    let depth = 0;
    for (const selection of set.selections) {
      let inner: Cost;
      if (selection.kind === Kind.FIELD) {
        fields += 1;
        inner = selection.selectionSet ? measure(selection.selectionSet) : { fields: 0, depth: 0 };
        depth = Math.max(depth, 1 + inner.depth);
        fields += inner.fields;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        inner = measure(selection.selectionSet);
        depth = Math.max(depth, inner.depth);
        fields += inner.fields;
      } else {
        const name = selection.name.value;
        let known = memo.get(name);
        if (known === undefined) {
          const fragment = context.getFragment(name);
          if (fragment == null || visiting.has(name)) continue;
          visiting.add(name);
          known = measure(fragment.selectionSet);
          visiting.delete(name);
          memo.set(name, known);
        }
        depth = Math.max(depth, known.depth);
        fields += known.fields;
      }
      fields = Math.min(fields, cap);
    }
    return { fields, depth };
  };
  return measure(operation.selectionSet);
}

export function limitRule(limits: GraphqlLimits): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    [Kind.OPERATION_DEFINITION](node: OperationDefinitionNode) {
      const cost = measureOperation(node, context, limits.maxFields + 1);
      const name = node.name ? `The operation ${node.name.value}` : "The query";
      if (cost.depth > limits.maxDepth) {
        context.reportError(
          new GraphQLError(`${name} nests fields ${cost.depth} levels deep; the limit is ${limits.maxDepth}. Select less deeply nested fields.`, {
            nodes: node,
            extensions: { code: QUERY_TOO_COMPLEX },
          }),
        );
      }
      if (cost.fields > limits.maxFields) {
        context.reportError(
          new GraphQLError(
            `${name} selects more than ${limits.maxFields} fields (fragments expanded, aliases counted); the limit is ${limits.maxFields}. Select fewer fields or split the query.`,
            { nodes: node, extensions: { code: QUERY_TOO_COMPLEX } },
          ),
        );
      }
      return false;
    },
  });
}
