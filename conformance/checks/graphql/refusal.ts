/**
 * Telling "no capacity" from any other refusal of a deploy. The spec gives no error for a valid
 * podFindAndDeployOnDemand that finds no machine (the real platform answers "There are no
 * longer any instances available with the requested specifications"), so a refusal counts as
 * capacity when its words or its code say so. Such a refusal is never a rule failure: the
 * check tries another GPU type, and skips with the reason when none deploys.
 */
import { errorText, type GqlAnswer } from "./graphql-request.ts";

const CAPACITY =
  /no longer any instances|no instances|instances? (are |is )?(currently )?(not )?available|not available|unavailable|capacity|out of stock|sold out|no (free |available )?(gpus?|machines?|hosts?|stock|resources)|not enough|pod limit|too many pods|quota|limit of \d+ pods|\(limit \d+\)/i;

/** Whether a refusal's words or code say the platform lacks machines, GPUs or headroom. */
export function speaksOfCapacity(answer: GqlAnswer): boolean {
  return !answer.ok && (CAPACITY.test(errorText(answer)) || /NO_CAPACITY|POD_LIMIT/.test(errorText(answer)));
}

/**
 * Whether a refused deploy is one for capacity: its words, or a status platforms use for that
 * (409, 503). Not for refusals of an action on an existing pod, where 409 means a wrong state.
 */
export function isCapacityRefusal(answer: GqlAnswer): boolean {
  if (answer.ok) return false;
  return answer.res.status === 409 || answer.res.status === 503 || speaksOfCapacity(answer);
}
