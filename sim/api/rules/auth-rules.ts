/** Rules of authentication and authorization. */
import type { Rule } from "./rule.ts";

const AUTH = "Authentication";
const UNAUTHORIZED = "A missing, malformed, expired or invalid key gives 401.";
const FORBIDDEN = "A valid key without access to the resource or action gives 403.";

export const authRules = [
  {
    id: "auth.bearer-header", title: "REST and job endpoints accept `Authorization: Bearer <key>`",
    spec: "REST v2 and job endpoints: an API key sent in the `Authorization` header as `Bearer <API_KEY>`.",
    section: `${AUTH} › rule 1`, source: "spec", severity: "error", kind: "request",
  },
  {
    id: "auth.bare-key-jobs", title: "Job endpoints also accept the key alone in `Authorization`",
    spec: "The job-endpoint reference also shows the header carrying the key alone.", section: `${AUTH} › rule 1`,
    source: "spec", severity: "warning", kind: "request",
    strictOnly: "that the job endpoints accept the key alone (it reports what a reference shows, beside rule 1's `Bearer <API_KEY>`; a service taking only the Bearer form keeps rule 1)",
  },
  {
    id: "auth.missing-key", title: "A request without a key answers 401",
    spec: UNAUTHORIZED, section: `${AUTH} › rule 4`, source: "spec", severity: "error", kind: "request", status: 401, specStatuses: [401],
  },
  {
    id: "auth.malformed-key", title: "A malformed Authorization header answers 401",
    spec: UNAUTHORIZED, section: `${AUTH} › rule 4`, source: "spec", severity: "error", kind: "request", status: 401, specStatuses: [401],
  },
  {
    id: "auth.invalid-key", title: "An unknown key answers 401",
    spec: UNAUTHORIZED, section: `${AUTH} › rule 4`, source: "spec", severity: "error", kind: "request", status: 401, specStatuses: [401],
  },
  {
    id: "auth.expired-key", title: "An expired key answers 401",
    spec: UNAUTHORIZED, section: `${AUTH} › rule 4`, source: "spec", severity: "error", kind: "request", status: 401, specStatuses: [401],
  },
  {
    id: "auth.read-only-forbidden", title: "A valid key without the permission for an action answers 403",
    spec: FORBIDDEN, section: `${AUTH} › rule 4`, source: "spec", severity: "error", kind: "request", status: 403, specStatuses: [403],
  },
  {
    // Whether another account's pod is a resource the key "has no access to" (403) or one that
    // does not exist for it (404) the spec does not settle; both keep the pod hidden.
    id: "auth.account-isolation", title: "Another account's resources are never listed, read or changed",
    spec: FORBIDDEN, section: `${AUTH} › rule 4`, source: "spec", severity: "error", kind: "request", status: 404, lenientStatuses: [403, 404], strictStatuses: [404],
  },
] as const satisfies readonly Rule[];
