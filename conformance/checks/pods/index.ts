// Checks of the pods rules register themselves on import.
import "./lifecycle-register.ts";
import "./create-request-checks.ts";
import "./create-response-checks.ts";
import "./create-versioning.ts";
import "./errors-checks.ts";
import "./catalog-checks.ts";
import "./lifecycle-locked.ts";
import "./lifecycle-host-taken.ts";
import "./lifecycle-action-body.ts";
import "./lifecycle-not-found.ts";
import "./update-rules.ts";
import "./update-mounts-unchanged.ts";
