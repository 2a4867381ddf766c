/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`reports/summary-table.test.ts > TAP > a narrow terminal folds the skip reasons to its width, whole (#35: "--profile s…"), and never cuts a failure's diagnosis > width 50 1`] = `
FAIL pods.create.unknown-property: 1 failure
  expected: 400 problem+json naming the unknown property \`bogus\`
  got: HTTP 201
  reproduce pods.create.unknown-property with: cpsim conform --target http://127.0.0.1:8080 --seed 42 --only pods.create.unknown-property
known (in the baseline): jobs.retry.only-failed
skipped, by reason:
    1 × needs --restricted-api-key
    1 × target error: CPSIM_ERR_TARGET_TIMEOUT
1 passed, 1 failed, 2 skipped, 1 known, 1 target error
coverage: 5/8 rules judged, 2/3 pod transitions, 1/2 job transitions
wall time 31.8 s, 120 requests, 3.8 requests/s
target error in jobs.runsync.waits: CPSIM_ERR_TARGET_TIMEOUT: no response within 30000 ms
FAILED (1 failed; 5 of 8 rules judged)

`

exports[`reports/summary-table.test.ts > TAP > the summary: failures with their replay, skips by reason, totals, and the verdict last > width 100 1`] = `
FAIL pods.create.unknown-property: 1 failure
  expected: 400 problem+json naming the unknown property \`bogus\`
  got: HTTP 201
  reproduce pods.create.unknown-property with: cpsim conform --target http://127.0.0.1:8080 --seed 42 --only pods.create.unknown-property
known (in the baseline): jobs.retry.only-failed
skipped, by reason:
    1 × needs --restricted-api-key
    1 × target error: CPSIM_ERR_TARGET_TIMEOUT
1 passed, 1 failed, 2 skipped, 1 known, 1 target error
coverage: 5/8 rules judged, 2/3 pod transitions, 1/2 job transitions
wall time 31.8 s, 120 requests, 3.8 requests/s
target error in jobs.runsync.waits: CPSIM_ERR_TARGET_TIMEOUT: no response within 30000 ms
FAILED (1 failed; 5 of 8 rules judged)

`
