/**
 * Limits on GraphQL documents, so one request cannot make the emulator do unbounded work:
 * document size, selection depth and the number of fields selected (aliases included).
 */
import { GraphQLError, Kind, type ASTVisitor, type ValidationContext, type ValidationRule } from "graphql";

export interface GraphqlLimits {
  /** Bytes of the query string. */
  readonly maxDocumentBytes: number;
  /** Nesting of selection sets. */
  readonly maxDepth: number;
  /** Field selections in the whole document. */
  readonly maxFields: number;
}

export const defaultGraphqlLimits: GraphqlLimits = { maxDocumentBytes: 64 * 1024, maxDepth: 12, maxFields: 1000 };

export function limitRule(limits: GraphqlLimits): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    let depth = 0;
    let fields = 0;
    let reported = false;
    const fail = (message: string) => {
      if (reported) return;
      reported = true;
      context.reportError(new GraphQLError(message, { extensions: { code: "QUERY_TOO_COMPLEX" } }));
    };
    return {
      SelectionSet: {
        enter() {
          depth++;
          if (depth > limits.maxDepth) fail(`The query is nested ${depth} levels deep; the limit is ${limits.maxDepth}.`);
        },
        leave() {
          depth--;
        },
      },
      [Kind.FIELD]() {
        fields++;
        if (fields > limits.maxFields) fail(`The query selects more than ${limits.maxFields} fields; select fewer.`);
      },
    };
  };
}
