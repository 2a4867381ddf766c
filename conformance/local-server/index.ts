/**
 * `cpsim conform --local-server URL`: the local test server's rules, registered on import. They
 * skip unless --local-server is given; `cli.ts` runs only them when it is.
 */
import { registerCheck } from "../check-registry.ts";
import { checkLocalDefaultAddress, checkLocalExitCode, checkLocalRunPlaceholder, checkLocalRunsync, checkLocalStatusRunsOnce, checkLocalTestInput } from "./local-checks.ts";

registerCheck("local.default-address", checkLocalDefaultAddress);
registerCheck("local.runsync", checkLocalRunsync);
registerCheck("local.run-placeholder", checkLocalRunPlaceholder);
registerCheck("local.test-input", checkLocalTestInput);
registerCheck("local.status-runs-once", checkLocalStatusRunsOnce);
registerCheck("local.exit-code", checkLocalExitCode);
