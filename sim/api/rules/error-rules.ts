/** Rules of REST error answers: problem+json bodies, titles, and the status of a malformed request. */
import type { Rule } from "./rule.ts";

const ERRORS = "REST v2 (createPod)";

export const errorRules = [
  {
    id: "errors.problem-json", title: "REST errors are problem+json bodies following ErrorResponse",
    spec: "Bodies follow ErrorResponse with content type `application/problem+json`.", section: ERRORS, source: "spec", severity: "error", kind: "response",
  },
  {
    id: "errors.same-body", title: "Every REST error status uses the ErrorResponse body",
    spec: "Any other error uses the same body", section: ERRORS, source: "spec", severity: "error", kind: "response",
  },
  {
    id: "errors.status-matches", title: "ErrorResponse `status` equals the HTTP status",
    spec: "status | integer | yes | HTTP status code", section: "ErrorResponse (REST errors)", source: "spec", severity: "error", kind: "response",
  },
  {
    id: "errors.title-matches-status", title: "ErrorResponse `title` is the status's title (400 Bad Request, 401 Unauthorized, ...)",
    spec: "400 | Bad Request | Malformed request or conflict with rules", section: ERRORS, source: "spec", severity: "error", kind: "response",
  },
  {
    id: "errors.validation-list", title: "A 422 lists the individual validation failures in `errors`",
    spec: "individual failures may be listed in `errors`", section: ERRORS, source: "spec", severity: "warning", kind: "response",
    lenient: "A 422 without `errors` keeps it (failures \"may be listed\"); a list that is there is an array of strings (ErrorResponse's table). Strict also requires the list on every 422, naming each failure.",
  },
  {
    id: "errors.malformed-request", title: "A body that is not JSON answers 400",
    spec: "Malformed request or conflict with rules, such as setting both `persistent` and `network` mounts, an empty `network` array, a changed mount kind or a changed `volumeId`",
    section: ERRORS, source: "spec", severity: "error", kind: "request", status: 400, specStatuses: [400],
  },
  {
    id: "errors.json-bodies", title: "Bodies are JSON with `Content-Type: application/json`",
    spec: "All bodies are JSON (`Content-Type: application/json`).", section: "Endpoints", source: "spec", severity: "error", kind: "response",
  },
] as const satisfies readonly Rule[];
