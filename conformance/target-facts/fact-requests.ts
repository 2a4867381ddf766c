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

/**
 * A route that takes a pod's desired status instead of an action: `PATCH /v2/pods/{podId}` with
 * `{"desiredStatus": ...}` (as the spec's GraphQL speaks of desiredStatus). Restart has no desired
 * status of its own, so such a target serves no restart.
 */
export const DESIRED_STATUS: Readonly<Record<string, string>> = { start: "RUNNING", stop: "EXITED", terminate: "TERMINATED" };

/** The method a template names (`PATCH /v2/pods/{podId}`), POST by default, and its path. */
function methodOf(template: string): { method: string; path: string } {
  const m = /^(POST|PATCH|PUT) (\/.*)$/.exec(template);
  return m ? { method: m[1]!, path: m[2]! } : { method: "POST", path: template };
}

/** Whether the route takes a desired status (a PATCH of the pod) rather than an action. */
export const actionAsDesiredStatus = (facts: TargetFacts): boolean => methodOf(facts.podActionPath.value).method === "PATCH";

/** Whether the target takes no action body: the action in the path (`/{action}`, `:{action}`) or a desired status. */
export const actionInPath = (facts: TargetFacts): boolean => facts.podActionPath.value.includes("{action}") || actionAsDesiredStatus(facts);

/** The actions the route cannot express (restart, where the route takes a desired status). */
export const inexpressibleActions = (facts: TargetFacts): string[] => (actionAsDesiredStatus(facts) ? ["restart"] : []);

/**
 * `action` on pod `id`. `body` (the default `{action}`) is sent only where the target takes the
 * action in the body; where it takes it in the path, no body is sent.
 */
export function podActionRequest(w: Where, id: string, action: string, o: { readonly body?: unknown; readonly key?: KeyRole } = {}): RequestSpec {
  const { method, path } = methodOf(w.facts.podActionPath.value);
  const url = `${w.target.rest}${fillPath(path, { podId: id, action })}`;
  const auth = { key: o.key ?? "api" } as const;
  if (method === "PATCH") return { method, url, auth, json: { desiredStatus: DESIRED_STATUS[action] ?? action.toUpperCase() } };
  return actionInPath(w.facts) ? { method, url, auth } : { method, url, auth, json: "body" in o ? o.body : { action } };
}

/** DELETE of pod `id`, or undefined where the target has no delete (terminate goes through the action). */
export function podDeleteRequest(w: Where, id: string, key: KeyRole = "api"): RequestSpec | undefined {
  const template = w.facts.podDeletePath.value;
  return template === null ? undefined : { method: "DELETE", url: `${w.target.rest}${fillPath(template, { podId: id })}`, auth: { key } };
}

export function podListRequest(w: Where): RequestSpec {
  return { method: "GET", url: `${w.target.rest}${w.facts.podListPath.value}`, auth: { key: "api" } };
}
