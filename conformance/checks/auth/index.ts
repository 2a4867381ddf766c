// Checks of the auth and rate-limit rules register themselves on import. Order matters: the
// rate-limit rules spend the other account's minute window last, after the checks that need it.
import "./unauthorized.ts";
import "./expired-key.ts";
import "./key-accepted.ts";
import "./read-only-forbidden.ts";
import "./account-isolation.ts";
import "./ratelimit/index.ts";
