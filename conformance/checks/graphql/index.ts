// Checks of the graphql rules register themselves on import.
import "./auth-checks.ts";
import "./envelope-checks.ts";
import "./gpu-type-checks.ts";
import "./deploy-checks.ts";
import "./cuda-check.ts";
import "./pod-read-checks.ts";
import "./stop-resume-checks.ts";
import "./client-fields-check.ts";
