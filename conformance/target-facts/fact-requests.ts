/**
 * The pod requests whose path the spec does not show, built from the target's facts: the action
 * (in the body or in the path), delete and list.
 */
import type { RequestSpec } from "../client.ts";
import type { KeyRole } from "../keys.ts";
import { fillPath, type TargetFacts } from "./target-facts.ts";

interface Where {
  readonly facts: TargetFacts;
  readonly target: { readonly rest: string };
}

/** Whether the target takes the action in the path (`/v2/pods/{podId}/{action}`), not in a body. */
export const actionInPath = (facts: TargetFacts): boolean => facts.podActionPath.value.includes("{action}");

/**
 * `action` on pod `id`. `body` (the default `{action}`) is sent only where the target takes the
 * action in the body; where it takes it in the path, no body is sent.
 */
export function podActionRequest(w: Where, id: string, action: string, o: { readonly body?: unknown; readonly key?: KeyRole } = {}): RequestSpec {
  const template = w.facts.podActionPath.value;
  const url = `${w.target.rest}${fillPath(template, { podId: id, action })}`;
  const auth = { key: o.key ?? "api" } as const;
  return actionInPath(w.facts) ? { method: "POST", url, auth } : { method: "POST", url, auth, json: "body" in o ? o.body : { action } };
}

/** DELETE of pod `id`, or undefined where the target has no delete (terminate goes through the action). */
export function podDeleteRequest(w: Where, id: string, key: KeyRole = "api"): RequestSpec | undefined {
  const template = w.facts.podDeletePath.value;
  return template === null ? undefined : { method: "DELETE", url: `${w.target.rest}${fillPath(template, { podId: id })}`, auth: { key } };
}

export function podListRequest(w: Where): RequestSpec {
  return { method: "GET", url: `${w.target.rest}${w.facts.podListPath.value}`, auth: { key: "api" } };
}
