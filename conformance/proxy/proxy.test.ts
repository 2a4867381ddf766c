/**
 * The proxy's tests, in one process (each `*.part.test.ts` is a whole test file; see
 * conformance/conformance.test.ts for why parts). One part alone: `npx tap conformance/proxy/<part>`.
 */
import "./clean-traffic.part.test.ts";
import "./defect-traffic.part.test.ts";
import "./client-findings.part.test.ts";
import "./transparency.part.test.ts";
import "./cli.part.test.ts";
import "./stop.part.test.ts";
import "./gate.part.test.ts";
import "./cut-answer.part.test.ts";
import "./shadow.part.test.ts";
import "./official-client-quirks.part.test.ts";
