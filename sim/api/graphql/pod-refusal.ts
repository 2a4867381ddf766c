/**
 * A pod refusal of the domain as a GraphQL error: the sentence says what happened and what to do,
 * `extensions.code` says which kind of refusal it was. The HTTP status stays 200 (the error sits
 * in `errors` beside `data`), so the official clients raise it as an error.
 */
import type { GraphQLError } from "graphql";
import { ACTIONS_BY_STATUS, POD_STATUSES, type PodAction, type PodRefusal } from "../../domain/pods/index.ts";
import { GraphqlCode, userError } from "./error-codes.ts";

/** The mutation that asked for each action, for messages. */
const MUTATION_OF: Readonly<Record<PodAction, string>> = { start: "podResume", stop: "podStop", restart: "podRestart", terminate: "podTerminate" };

function statusesAllowing(action: PodAction): string {
  return POD_STATUSES.filter((s) => ACTIONS_BY_STATUS[s].includes(action)).join(", ");
}

export function podRefusalError(refusal: PodRefusal, podId: string, action?: PodAction): GraphQLError {
  switch (refusal.code) {
    case "not-found":
      return userError(
        GraphqlCode.NOT_FOUND,
        `Pod ${JSON.stringify(podId)} was not found in your account; send the id of one of your pods (myself { pods { id } } lists them).`,
      );
    case "not-allowed":
      return action === undefined
        ? userError(GraphqlCode.CONFLICT, `Pod ${JSON.stringify(podId)} cannot be changed now: ${refusal.message}.`)
        : userError(
            GraphqlCode.CONFLICT,
            `${MUTATION_OF[action]} cannot act on pod ${JSON.stringify(podId)} now (${refusal.message}); it applies to a pod that is ${statusesAllowing(action)}.`,
          );
    case "locked":
      return userError(GraphqlCode.CONFLICT, `${refusal.message}.`);
    case "host-full":
      return userError(
        GraphqlCode.CONFLICT,
        `Pod ${JSON.stringify(podId)} cannot resume: ${refusal.message}. A stopped pod stays tied to its host; try again later, or resume with fewer GPUs (gpuCount).`,
      );
    case "no-capacity":
      // The real platform's sentence, word for word: scripts match on it.
      return userError(GraphqlCode.NO_CAPACITY, refusal.message);
    case "pod-limit":
      return userError(GraphqlCode.POD_LIMIT, `No pod was created: ${refusal.message}. Terminate pods you no longer need.`);
    case "bad-request":
      return userError(GraphqlCode.BAD_USER_INPUT, `The input is not valid: ${refusal.message}.`);
  }
}
