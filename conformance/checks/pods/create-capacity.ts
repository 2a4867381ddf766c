/**
 * Telling "no capacity" from "invalid request". The spec gives no status for a valid createPod
 * that finds no machine (the emulator answers 409; the real platform's message is "There are
 * no longer any instances available ..."), so a refusal counts as capacity when its status is
 * one a platform uses for that (409, 503) or its words say so (a refusal that names availability,
 * "at most 2 ... are available in the SECURE cloud", is capacity). Such a refusal of a valid body
 * is never a rule failure; of a body that breaks a shape rule it is one (the target tried to
 * place a pod it should have refused outright).
 */
import type { ClientResponse } from "../../client.ts";

const CAPACITY_WORDS =
  /no longer any instances|no instances|\bavailab(le|ility)\b|unavailable|capacity|out of stock|sold out|no (free |available )?(gpus?|machines?|hosts?|stock|resources)|not enough free/i;

/** The account's or the platform's pod limit: also not the request's fault. */
const LIMIT_WORDS = /pod limit|too many pods|limit of \d+ pods|\(limit \d+\)|quota/i;

function detailText(res: ClientResponse): string {
  const body = res.json;
  if (typeof body === "object" && body !== null) {
    const b = body as Record<string, unknown>;
    return [b.title, b.detail, b.message, b.error, ...(Array.isArray(b.errors) ? b.errors : [])].filter((x) => typeof x === "string").join(" ");
  }
  return res.text.slice(0, 2000);
}

/** Whether an error's words speak of capacity or the account's headroom (the value store learns nothing from such a refusal). */
export function capacityWords(text: string): boolean {
  return CAPACITY_WORDS.test(text) || LIMIT_WORDS.test(text);
}

/** Whether a refusal says the platform lacks capacity (or the account its headroom). */
export function isCapacityRefusal(res: ClientResponse): boolean {
  if (res.status < 400) return false;
  if (res.status === 409 || res.status === 503) return true;
  const text = detailText(res);
  return CAPACITY_WORDS.test(text) || LIMIT_WORDS.test(text);
}

/** Words that only a placement failure uses (a validation message may say "not available"). */
const PLACEMENT_WORDS = /no longer any instances|no instances|capacity|out of stock|sold out|not enough free/i;

/** Whether a refusal says, unmistakably, that placement was tried and failed. */
export function speaksOfCapacity(res: ClientResponse): boolean {
  return res.status >= 400 && PLACEMENT_WORDS.test(detailText(res));
}
