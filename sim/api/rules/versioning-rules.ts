/** Rules of versioning. */
import type { Rule } from "./rule.ts";

export const versioningRules = [
  {
    id: "versioning.v2-prefix", title: "REST and job endpoint paths carry the `/v2` prefix",
    spec: "The REST interface is version 2.0.0 and its paths carry the prefix `/v2`; job endpoint paths carry the same prefix.",
    section: "Versioning", source: "spec", severity: "error", kind: "request",
  },
] as const satisfies readonly Rule[];
