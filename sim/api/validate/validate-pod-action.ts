/** Validation of a pod action body: `{"action": "start" | "stop" | "restart" | "terminate"}`, nothing else. */
import type { PodAction } from "../schemas/index.ts";
import { PodActionRequest } from "../schemas/index.ts";
import { schemaViolations, type IssueRoute } from "./schema-violations.ts";
import { sharedValidator } from "./shared-validator.ts";
import { fail, type Validated } from "./violation.ts";

const ROUTES: readonly IssueRoute[] = [
  { keyword: "additionalProperties", ruleId: "pods.action.unknown-property" },
  { keyword: "required", path: /^\/action$/, ruleId: "pods.action.action-required" },
  { path: /^\/action$/, ruleId: "pods.action.action-enum" },
  { ruleId: "pods.action.field-type" },
];

const ROOT_HINT = '{"action": "start"}, {"action": "stop"}, {"action": "restart"} or {"action": "terminate"}';

export function validatePodAction(body: unknown): Validated<{ readonly action: PodAction }> {
  const issues = sharedValidator().issues(PodActionRequest.$id as string, body);
  if (issues.length > 0) return fail(schemaViolations(issues, ROUTES, { rootHint: ROOT_HINT }));
  return { ok: true, value: { action: (body as PodActionRequest).action } };
}
