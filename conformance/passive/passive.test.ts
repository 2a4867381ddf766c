/**
 * The passive module's short tests, in one process (see conformance/conformance.test.ts for why
 * parts). same-verdict.test.ts, which runs conform through the proxy, is a file of its own.
 */
import "./followers.part.test.ts";
import "./runsync-wait.part.test.ts";
import "./delay-floor.part.test.ts";
import "./cpu-memory.part.test.ts";
import "./invalid-key.part.test.ts";
import "./sole-client.part.test.ts";
import "./request-checks.part.test.ts";
import "./bounded-map.part.test.ts";
import "./no-false-findings.part.test.ts";
