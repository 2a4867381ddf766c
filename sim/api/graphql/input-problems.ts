/**
 * Collects what is wrong with a mutation's input, in GraphQL's words (the input's own field
 * names), and turns it into one BAD_USER_INPUT error listing every problem.
 */
import type { GraphQLError } from "graphql";
import { GraphqlCode, userError } from "./error-codes.ts";

export interface InputProblem {
  /** The input field at fault, e.g. `gpuTypeId` or `env[2].key`. */
  readonly field: string;
  /** A sentence: what was wrong and what to send instead. */
  readonly message: string;
  /** The rule of the catalog it breaks, when the REST validator found it. */
  readonly ruleId?: string;
}

export class InputProblems {
  readonly list: InputProblem[] = [];

  add(field: string, message: string, ruleId?: string): void {
    this.list.push(ruleId === undefined ? { field, message } : { field, message, ruleId });
  }

  get empty(): boolean {
    return this.list.length === 0;
  }

  toError(mutation: string): GraphQLError {
    const n = this.list.length;
    const message =
      n === 1
        ? `${mutation}: ${this.list[0]!.message}`
        : `${mutation}: the input has ${n} problems: ${this.list.map((p) => p.message).join(" ")}`;
    return userError(GraphqlCode.BAD_USER_INPUT, message, { problems: this.list.map((p) => ({ ...p })) });
  }
}
