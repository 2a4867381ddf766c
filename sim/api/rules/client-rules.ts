/**
 * Rules of a client's behaviour, which only traffic shows: `cpsim proxy` judges them on the
 * requests a client sends (conform sends its own requests, so it never judges these).
 */
import type { Rule } from "./rule.ts";

export const clientRules = [
  {
    id: "client.retry-after", title: "After a 429, a client waits the Retry-After seconds before sending again with that key",
    spec: "The per-user rate limit is exceeded; the detail names the exceeded window; headers `Retry-After` (integer seconds), `RateLimit`, `RateLimit-Policy` accompany it",
    section: "REST v2 (createPod)", source: "spec", severity: "warning", kind: "request",
    lenient: "Judged on traffic only: a request with the key of a 429 sent before its Retry-After seconds have passed (counted from the 429's arrival) breaks it.",
  },
  {
    id: "client.poll-finished-job", title: "A client stops polling a job once its status is final",
    spec: "`run` returns immediately with a job id; results are fetched with `status`.",
    section: "Job endpoints › rule 3", source: "spec", severity: "warning", kind: "request",
    lenient: "Judged on traffic only: more reads of a finished job (COMPLETED, FAILED, CANCELLED, TIMED_OUT, not retried since) than the proxy's --max-final-polls break it.",
  },
] as const satisfies readonly Rule[];
