/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`reports/summary-table.test.ts > TAP > summary table at the default width > width 100 1`] = `
Rule                           Result    Time  Note
----------------------------------------------------------------------------------------------------
pods.create.required-fields    PASS     12 ms
pods.create.unknown-property   FAIL     1.5 s  1 failure: 400 problem+json naming the unknown prope…
auth.restricted-key.forbidden  SKIP      0 ms  needs --restricted-api-key
jobs.retry.only-failed         KNOWN   250 ms  failed in the baseline too
jobs.runsync.waits             SKIP    30.0 s  target error: CPSIM_ERR_TARGET_TIMEOUT

1 passed, 1 failed, 2 skipped, 1 known, 1 target error
coverage: 5/8 rules checked, 2/3 pod transitions, 1/2 job transitions
wall time 31.8 s, 120 requests, 3.8 requests/s
target error in jobs.runsync.waits: CPSIM_ERR_TARGET_TIMEOUT: no response within 30000 ms
reproduce pods.create.unknown-property with: cpsim conform --target http://127.0.0.1:8080 --seed 42 --only pods.create.unknown-property

`

exports[`reports/summary-table.test.ts > TAP > summary table in a narrow terminal keeps rows within the width > width 50 1`] = `
Rule                           Result    Time
---------------------------------------------
pods.create.required-fields    PASS     12 ms
pods.create.unknown-property   FAIL     1.5 s
auth.restricted-key.forbidden  SKIP      0 ms
jobs.retry.only-failed         KNOWN   250 ms
jobs.runsync.waits             SKIP    30.0 s

1 passed, 1 failed, 2 skipped, 1 known, 1 target error
coverage: 5/8 rules checked, 2/3 pod transitions, 1/2 job transitions
wall time 31.8 s, 120 requests, 3.8 requests/s
target error in jobs.runsync.waits: CPSIM_ERR_TARGET_TIMEOUT: no response within 30000 ms
reproduce pods.create.unknown-property with: cpsim conform --target http://127.0.0.1:8080 --seed 42 --only pods.create.unknown-property

`
